// The browser's time zone, told to the server in a cookie (accounts/zones.py reads it): times a
// member types are read in it and times are shown in it, unless the member chose a zone.
// Written only when it changes; the next page is in it.
import { zoneCookie } from "./zonecookie.js";

const cookie = zoneCookie(document.cookie, Intl.DateTimeFormat().resolvedOptions().timeZone,
  location.protocol === "https:");
if (cookie) document.cookie = cookie;
