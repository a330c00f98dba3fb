// The cookie that tells the server the browser's time zone (COOKIE in accounts/zones.py), or null when
// the browser already says it. Pure, for node --test. Zone names (Europe/Moscow, Etc/GMT+3) are
// all cookie-safe characters, written as they are: the server reads cookies without %-decoding.
export const COOKIE = "tz";
const YEAR = 365 * 24 * 3600;
const NAME = /^[A-Za-z0-9_+\-/]{1,64}$/;

export function zoneCookie(cookies, zone, secure) {
  if (!zone || !NAME.test(zone)) return null;
  const now = cookies.split(";").map((c) => c.trim()).find((c) => c.startsWith(`${COOKIE}=`));
  if (now && now.slice(COOKIE.length + 1) === zone) return null;
  return `${COOKIE}=${zone}; path=/; max-age=${YEAR}; samesite=lax${secure ? "; secure" : ""}`;
}
