// Package render turns a fetched page into the page a browser shows: it
// drives a headless Chromium (through chromedp) whose every request is
// intercepted and answered by the fetcher, so rendering is as polite and
// as guarded as a plain fetch — one per-host budget, robots.txt, the
// address guard — and the browser itself never opens a connection.
//
// NeedsScripts is the per-page decision of fetch --render auto: whether
// the static HTML shows that its content is built by scripts. Renderer
// renders, with bounded tabs, a hard time cap per page, and a browser
// restarted when it crashes.
package render
