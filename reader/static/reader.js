// The reader's little JavaScript: everything works without it; it adds tabs that switch, the
// Ctrl-K, Cmd-K and "/" shortcuts to the search box, a menu button for the page list on phones,
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
