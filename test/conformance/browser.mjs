// A stand-in for a web browser, for the conformance suite's sign-ins: the CLI runs it as its
// browser command (--browser) with the sign-in page's URL as the last argument. It does what a
// browser does when the user is already signed in: GET the page, follow the redirects (the
// suite's authorization server approves at once), and load the last one, which is the CLI's
// loopback redirect receiver. Exit 0 when that page loads, 1 otherwise. It prints no URL: the
// redirects carry the authorization code.
const MAX_REDIRECTS = 10;

const start = process.argv.at(-1) ?? '';
let url;
try {
  url = new URL(start);
} catch {
  console.error('browser: the last argument must be a URL');
  process.exit(2);
}

for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    console.error(`browser: refusing to open a ${url.protocol} page`);
    process.exit(1);
  }
  /** @type {Response} */
  const page = await fetch(url, { redirect: 'manual' });
  await page.arrayBuffer();
  /** @type {string | null} */
  const location = page.headers.get('location');
  if (page.status >= 300 && page.status < 400 && location) {
    url = new URL(location, url);
    continue;
  }
  console.error(`browser: ${url.origin}${url.pathname} answered ${page.status}`);
  process.exit(page.ok ? 0 : 1);
}
console.error(`browser: more than ${MAX_REDIRECTS} redirects`);
process.exit(1);
