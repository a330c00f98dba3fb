// The site menu on a narrow screen: folded behind one button (site.css shows the button and
// folds the menu only when this script has run, so without scripts the menu simply wraps).

const header = document.querySelector(".site-header");
const toggle = header?.querySelector('[data-testid="menu-toggle"]');
if (header && toggle) {
  const set = (open) => {
    toggle.setAttribute("aria-expanded", String(open));
    header.classList.toggle("open", open);
  };
  header.classList.add("folding");
  toggle.hidden = false;
  toggle.addEventListener("click", () => set(toggle.getAttribute("aria-expanded") !== "true"));
  // Escape closes an open menu and gives focus back to its button.
  header.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && header.classList.contains("open")) {
      set(false);
      toggle.focus();
    }
  });
}
