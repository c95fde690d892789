// The "browser" of the conformance runs (HX_BROWSER): opens the authorization URL hx gives it
// and follows the redirects a browser would, up to hx's 127.0.0.1 callback. The suite's test
// authorization server approves at once (no login page), as for the suite's example clients.
const url = process.argv[2];
if (!url) {
  console.error("usage: follow-redirect.mjs <authorization-url>");
  process.exit(2);
}
let next = url;
for (let hop = 0; hop < 5; hop++) {
  const response = await fetch(next, { redirect: "manual" });
  const location = response.headers.get("location");
  if (!location || response.status < 300 || response.status >= 400) {
    if (!response.ok) console.error(`follow-redirect: ${response.status} from ${next}`);
    process.exit(response.ok ? 0 : 1);
  }
  next = new URL(location, next).toString();
}
