// The reader's little JavaScript: everything works without it; it adds tabs that switch, the
// Ctrl-K, Cmd-K and "/" shortcuts to the search box, results as you type, a menu button for the page list on phones,
// copy buttons on code blocks, and remembers which theme a reader chose.
(function () {
  "use strict";
  // Light, dark or the system's: the site sets the default (data-theme); a visitor's choice is
  // remembered on this device and wins, where the site shows the toggle.
  var toggle = document.querySelector("[data-theme-toggle]");
  if (toggle) {
    var root = document.documentElement, modes = ["light", "dark", "system"];
    var apply = function (mode) {
      if (mode === "system") root.removeAttribute("data-theme"); else root.setAttribute("data-theme", mode);
      toggle.textContent = mode === "system" ? "Theme: system" : mode === "dark" ? "Theme: dark" : "Theme: light";
    };
    var saved = null;
    try { saved = localStorage.getItem("bindery-theme"); } catch (e) {}
    var current = modes.indexOf(saved) >= 0 ? saved : root.getAttribute("data-theme") || "system";
    apply(current);
    toggle.hidden = false;
    toggle.addEventListener("click", function () {
      current = modes[(modes.indexOf(current) + 1) % modes.length];
      apply(current);
      try { localStorage.setItem("bindery-theme", current); } catch (e) {}
    });
  }
  document.querySelectorAll("[data-tabs]").forEach(function (tabs, n) {
    var panels = Array.prototype.slice.call(tabs.children).filter(function (el) {
      return el.classList.contains("tab-panel");
    });
    if (panels.length < 2) return;
    var list = document.createElement("div");
    list.className = "tab-list";
    list.setAttribute("role", "tablist");
    var buttons = panels.map(function (panel, i) {
      var id = "tab-" + n + "-" + i;
      var b = document.createElement("button");
      b.type = "button";
      b.id = id;
      b.textContent = panel.getAttribute("data-title");
      b.setAttribute("role", "tab");
      panel.setAttribute("role", "tabpanel");
      panel.setAttribute("aria-labelledby", id);
      var title = panel.querySelector(".tab-title");
      if (title) title.hidden = true;
      b.addEventListener("click", function () { select(i); });
      b.addEventListener("keydown", function (e) {
        if (e.key === "ArrowRight") { select((i + 1) % panels.length); buttons[(i + 1) % panels.length].focus(); }
        if (e.key === "ArrowLeft") { select((i + panels.length - 1) % panels.length); buttons[(i + panels.length - 1) % panels.length].focus(); }
      });
      list.appendChild(b);
      return b;
    });
    function select(k) {
      buttons.forEach(function (b, i) {
        b.setAttribute("aria-selected", i === k ? "true" : "false");
        b.tabIndex = i === k ? 0 : -1;
        panels[i].hidden = i !== k;
      });
    }
    tabs.insertBefore(list, tabs.firstChild);
    tabs.classList.add("js");
    select(0);
  });
  // Diagrams: pages holding one load the diagram library before this script; each diagram's
  // source is code until it is drawn, and stays so when drawing fails.
  if (window.mermaid) {
    var dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
    window.mermaid.initialize({ startOnLoad: false, securityLevel: "strict", theme: dark ? "dark" : "default" });
    document.querySelectorAll('figure[data-diagram="mermaid"]').forEach(function (fig, i) {
      var pre = fig.querySelector("pre");
      if (!pre) return;
      window.mermaid.render("diagram-" + i, pre.textContent).then(function (out) {
        var drawing = document.createElement("div");
        drawing.className = "diagram-drawing";
        drawing.innerHTML = out.svg;
        fig.insertBefore(drawing, pre);
        pre.hidden = true;
      }).catch(function () {});
    });
  }
  // Math: pages holding some load the math library before this script; each formula's TeX is
  // code until it is typeset, and stays so when typesetting fails.
  if (window.katex) {
    document.querySelectorAll("div.math > code, code.math").forEach(function (code) {
      var display = code.parentNode.classList.contains("math") && code.parentNode.tagName === "DIV";
      var out = document.createElement(display ? "div" : "span");
      out.className = "math-typeset";
      try {
        window.katex.render(code.textContent, out, { displayMode: display, throwOnError: true });
      } catch (e) {
        return;
      }
      code.parentNode.insertBefore(out, code);
      code.hidden = true;
    });
  }
  // Insights: one view of this page, as an image of the site's own origin (nothing else may be
  // fetched); none for a visitor who asks not to be tracked.
  var view = document.body.getAttribute("data-beacon");
  if (view && navigator.doNotTrack !== "1" && !navigator.globalPrivacyControl) {
    new Image().src = view + "?u=" + encodeURIComponent(location.href.split("#")[0]) + "&r=" + encodeURIComponent(document.referrer || "");
  }
  // Search: Ctrl-K or Cmd-K anywhere, "/" outside a text field, focuses the search box.
  document.addEventListener("keydown", function (e) {
    var q = document.getElementById("q");
    if (!q) return;
    var typing = /INPUT|TEXTAREA|SELECT/.test(document.activeElement.tagName) || document.activeElement.isContentEditable;
    var chord = (e.ctrlKey || e.metaKey) && !e.altKey && (e.key === "k" || e.key === "K");
    if (chord || (e.key === "/" && !typing && document.activeElement !== q)) {
      e.preventDefault();
      q.focus();
      q.select();
    }
  });
  // Search as you type: the pages found show under the search box, chosen with the arrow keys
  // and Enter (or the mouse); Escape closes them. Submitting the form still shows the page of
  // results, which is all there is without this script.
  var q = document.getElementById("q"), form = q && q.form;
  if (q && form && window.fetch) {
    var list = document.createElement("ul"), items = [], active = -1, timer = 0, asked = "";
    list.id = "search-suggest";
    list.className = "suggest";
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", "Pages found");
    list.hidden = true;
    form.appendChild(list);
    q.setAttribute("role", "combobox");
    q.setAttribute("aria-autocomplete", "list");
    q.setAttribute("aria-controls", list.id);
    q.setAttribute("aria-expanded", "false");
    var close = function () {
      list.hidden = true;
      active = -1;
      q.setAttribute("aria-expanded", "false");
      q.removeAttribute("aria-activedescendant");
    };
    var mark = function (i) {
      if (active >= 0 && items[active]) items[active].setAttribute("aria-selected", "false");
      active = i;
      if (i < 0) { q.removeAttribute("aria-activedescendant"); return; }
      items[i].setAttribute("aria-selected", "true");
      q.setAttribute("aria-activedescendant", items[i].id);
      items[i].scrollIntoView({ block: "nearest" });
    };
    var show = function (results) {
      list.textContent = "";
      items = [];
      active = -1;
      results.forEach(function (r, i) {
        var li = document.createElement("li"), a = document.createElement("a"), where = document.createElement("span");
        li.id = "search-suggest-" + i;
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", "false");
        a.href = r.url;
        a.tabIndex = -1;
        a.textContent = r.title;
        where.className = "suggest-where";
        where.textContent = r.where;
        a.appendChild(where);
        li.appendChild(a);
        list.appendChild(li);
        items.push(li);
      });
      if (!results.length) {
        var none = document.createElement("li");
        none.className = "suggest-none";
        none.textContent = "No page matches";
        list.appendChild(none);
      }
      list.hidden = false;
      q.setAttribute("aria-expanded", "true");
    };
    var ask = function () {
      var text = q.value.trim();
      if (text.length < 2) { asked = ""; close(); return; }
      if (text === asked) return;
      asked = text;
      fetch(form.action + "?format=json&q=" + encodeURIComponent(text), { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (res) { return res.ok ? res.json() : null; })
        .then(function (body) { if (body && text === q.value.trim()) show(body.results || []); })
        .catch(function () {});
    };
    q.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(ask, 150);
    });
    q.addEventListener("keydown", function (e) {
      if (list.hidden) return;
      if (e.key === "ArrowDown" && items.length) { e.preventDefault(); mark((active + 1) % items.length); }
      else if (e.key === "ArrowUp" && items.length) { e.preventDefault(); mark(active <= 0 ? items.length - 1 : active - 1); }
      else if (e.key === "Enter" && active >= 0) { e.preventDefault(); location.href = items[active].firstChild.href; }
      else if (e.key === "Escape") { e.preventDefault(); close(); }
    });
    // Enter submits the form where a browser does not let the key be taken back: an option
    // chosen still wins over the page of results.
    form.addEventListener("submit", function (e) {
      if (!list.hidden && active >= 0 && items[active]) { e.preventDefault(); location.href = items[active].firstChild.href; }
    });
    q.addEventListener("blur", function () { setTimeout(close, 150); });
    q.addEventListener("focus", function () { if (items.length && q.value.trim() === asked) { list.hidden = false; q.setAttribute("aria-expanded", "true"); } });
  }
  // Phones: the page list folds behind a menu button (without this script it sits above the
  // content, as before).
  var menu = document.querySelector("[data-menu-toggle]"), sidebar = document.getElementById("sidebar");
  if (menu && sidebar) {
    document.documentElement.classList.add("has-menu");
    menu.hidden = false;
    menu.addEventListener("click", function () {
      var open = sidebar.classList.toggle("open");
      menu.setAttribute("aria-expanded", open ? "true" : "false");
      if (open) { var first = sidebar.querySelector("a"); if (first) first.focus(); }
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && sidebar.classList.contains("open")) {
        sidebar.classList.remove("open");
        menu.setAttribute("aria-expanded", "false");
        menu.focus();
      }
    });
  }
  // Code blocks: a button copies the code (without line numbers) to the clipboard.
  if (navigator.clipboard) {
    document.querySelectorAll("pre > code").forEach(function (code) {
      var pre = code.parentNode;
      if (pre.parentNode.classList.contains("diagram") || pre.closest("figure[data-diagram]")) return;
      var wrap = document.createElement("div");
      wrap.className = "code-wrap";
      pre.parentNode.insertBefore(wrap, pre);
      wrap.appendChild(pre);
      var b = document.createElement("button");
      b.type = "button";
      b.className = "copy-code";
      b.textContent = "Copy";
      b.setAttribute("aria-label", "Copy the code");
      b.addEventListener("click", function () {
        navigator.clipboard.writeText(code.textContent).then(function () {
          b.textContent = "Copied";
          setTimeout(function () { b.textContent = "Copy"; }, 1500);
        }, function () { b.textContent = "Copy failed"; });
      });
      wrap.appendChild(b);
    });
  }
})();
