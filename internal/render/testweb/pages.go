package testweb

import (
	"encoding/json"
	"fmt"
	"strings"
)

// page builds the HTML of a page.
func (w *Web) page(kind string, i int) (string, bool) {
	if i < 0 || (i >= w.N && kind != "ticker") || (kind == "ticker" && i != 0) {
		return "", false
	}
	nav, footer := chrome(i)
	title := fmt.Sprintf("%s %d", kind, i)
	switch kind {
	case "inline-object":
		paras := []string{}
		for j := 0; j < 4; j++ {
			paras = append(paras, marker(kind, i, j)+" "+prose("y", i+j, 40))
		}
		data, _ := json.Marshal(map[string]any{"title": "Report " + title, "paragraphs": paras})
		return doc(title, "", nav+`<main id="content"></main>`+footer+
			`<script>window.__STATE__ = `+string(data)+`;</script>
<script>var d = window.__STATE__; document.getElementById('content').innerHTML = '<h1>' + d.title + '</h1>' + d.paragraphs.map(function (p) { return '<p>' + p + '</p>'; }).join('');</script>`), true
	case "fetched-json":
		return doc(title, "", nav+`<div id="list">Loading…</div>`+footer+fmt.Sprintf(`
<script>fetch('/api/%d.json').then(function (r) { return r.json(); }).then(function (d) {
  var ul = document.createElement('ul');
  d.items.forEach(function (t) { var li = document.createElement('li'); li.textContent = t; ul.appendChild(li); });
  var el = document.getElementById('list'); el.textContent = ''; el.appendChild(ul);
});</script>`, i)), true
	case "delayed":
		return doc(title, "", nav+`<section id="late"></section>`+footer+fmt.Sprintf(`
<script>setTimeout(function () {
  var s = document.getElementById('late');
  %s.forEach(function (t) { var p = document.createElement('p'); p.textContent = t; s.append(p); });
}, %d);</script>`, jsArray(kind, i, 30), 300+(i*170)%1500)), true
	case "bundle":
		head := ""
		if i%2 == 1 {
			head = `<header><h1>Provincial forestry portal</h1></header>`
		}
		return doc(title, `<script defer src="/static-js/`+fmt.Sprint(i)+`.js"></script>`,
			head+`<div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript>`), true
	case "script-links":
		return doc(title, "", nav+`<p>`+prose("intro", i, 20+i%5*20)+`</p><ul id="links"></ul>`+footer+fmt.Sprintf(`
<script>(function () {
  var ul = document.getElementById('links');
  for (var k = 1; k <= 3; k++) {
    var li = document.createElement('li'), a = document.createElement('a');
    a.href = '/script-links/%d/link' + k; a.textContent = ['%s', '%s', '%s', '%s'][k] || 'more';
    li.appendChild(a); ul.appendChild(li);
  }
  var p = document.createElement('p'); p.textContent = '%s'; ul.appendChild(p);
})();</script>`, i, marker(kind, i, 0), marker(kind, i, 1), marker(kind, i, 2), marker(kind, i, 3), marker(kind, i, 0))), true
	case "routing":
		routes := map[string]string{}
		for _, r := range []string{"about", "link1", "link2"} {
			routes[r] = prose("z", i+len(r), 25)
		}
		routes["about"] = strings.Join([]string{marker(kind, i, 0), marker(kind, i, 1), marker(kind, i, 2), marker(kind, i, 3)}, " ") + " " + routes["about"]
		data, _ := json.Marshal(routes)
		return doc(title, "", `<div id="app"></div>`+fmt.Sprintf(`
<script>(function () {
  var routes = %s, base = '/routing/%d/';
  function show() {
    var name = location.pathname.slice(base.length) || 'about';
    var app = document.getElementById('app');
    app.innerHTML = '<nav><a data-route href="' + base + 'link1">One</a> <a data-route href="' + base + 'link2">Two</a></nav><article>' + (routes[name] || 'not found') + '</article>';
    app.querySelectorAll('a[data-route]').forEach(function (a) {
      a.addEventListener('click', function (e) { e.preventDefault(); history.pushState({}, '', a.href); show(); });
    });
  }
  window.addEventListener('popstate', show);
  show();
})();</script>`, data, i)), true
	case "endless-scroll":
		return doc(title, `<style>li { height: 120px; }</style>`, nav+`<ul id="feed"></ul>`+footer+fmt.Sprintf(`
<script>(function () {
  var feed = document.getElementById('feed'), n = 0, words = %s;
  function more() {
    for (var k = 0; k < 10; k++, n++) {
      var li = document.createElement('li');
      li.textContent = 'item %d-' + n + ' ' + (words[n] || '');
      feed.appendChild(li);
    }
  }
  more();
  window.addEventListener('scroll', function () {
    if (window.innerHeight + window.scrollY >= document.body.offsetHeight - 200 && n < 1000) setTimeout(more, 50);
  });
})();</script>`, jsArray(kind, i, 4), i)), true
	case "ticker":
		return doc(title, "", `<div id="t"></div><script>document.getElementById('t').textContent = 'tick-start';
setInterval(function () { var s = document.createElement('span'); s.textContent = ' tick'; document.getElementById('t').appendChild(s); }, 40);</script>`), true
	case "static":
		return doc(title, `<link rel="stylesheet" href="/css/`+fmt.Sprint(i)+`.css">`, nav+`<article><h1>`+title+`</h1><p>`+
			prose(kind, i, 200+i%4*80)+`</p><img src="/img/`+fmt.Sprint(i)+`.png" alt=""></article>`+footer), true
	case "static-short":
		return doc(title, "", `<div class="menu">Menu</div><h1>Contact</h1><p>`+prose(kind, i, 40+i%5*15)+`</p>
<script>document.querySelector('.menu').addEventListener('click', function () { document.body.classList.toggle('open'); });</script>`), true
	case "analytics":
		return doc(title, analytics, nav+`<article><h1>`+title+`</h1><p>`+prose(kind, i, 180+i%5*60)+`</p></article>`+footer+
			`<script src="/lib/menu.js"></script>`), true
	case "ssr":
		text := prose(kind, i, 220+i%5*60)
		data, _ := json.Marshal(map[string]any{"props": map[string]any{"title": title, "body": text}})
		ns := ""
		if i%2 == 0 {
			ns = `<noscript>Please enable JavaScript for the best experience.</noscript>`
		}
		return doc(title, `<script defer src="/static-js/ssr-`+fmt.Sprint(i)+`.js"></script>`, `<div id="__app">`+nav+`<article><h1>`+title+`</h1><p>`+text+`</p></article>`+footer+`</div>`+ns+
			`<script id="__DATA__" type="application/json">`+string(data)+`</script>`), true
	}
	return "", false
}

// jsArray is a JavaScript array of n sentences, the first four holding the
// page's markers.
func jsArray(kind string, i, n int) string {
	var s []string
	for j := 0; j < n; j++ {
		t := prose("w", i+j, 8)
		if j < 4 {
			t = marker(kind, i, j) + " " + t
		}
		s = append(s, t)
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// bundle is the script of a framework-like app: a tiny element factory and
// a render call that mounts the app into #root.
func bundle(i int) string {
	items, _ := json.Marshal([]string{marker("bundle", i, 0) + " " + prose("b", i, 30), marker("bundle", i, 1) + " " + prose("b", i+1, 30),
		marker("bundle", i, 2) + " " + prose("b", i+2, 30), marker("bundle", i, 3) + " " + prose("b", i+3, 30)})
	return `(function () {
  function h(tag, props) {
    var el = document.createElement(tag), kids = Array.prototype.slice.call(arguments, 2);
    Object.keys(props || {}).forEach(function (k) { el.setAttribute(k, props[k]); });
    kids.forEach(function (c) { el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return el;
  }
  var items = ` + string(items) + `;
  var root = document.getElementById('root');
  var list = h('ul', null);
  items.forEach(function (t) { list.appendChild(h('li', null, t)); });
  root.appendChild(h('main', {class: 'app'}, h('h1', null, 'Catalogue'), list));
})();`
}

// ssrBundle hydrates a server-rendered page: it reads the data and attaches
// a handler, changing nothing the reader sees.
const ssrBundle = `(function () { var d = JSON.parse(document.getElementById('__DATA__').textContent);
document.querySelectorAll('a').forEach(function (a) { a.addEventListener('click', function () { window.__clicked = d.props.title; }); }); })();`

// menuJS is a site's small menu script.
const menuJS = `document.addEventListener('DOMContentLoaded', function () { var m = document.querySelector('nav'); if (m) m.dataset.ready = '1'; });`
