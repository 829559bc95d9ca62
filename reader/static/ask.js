// The Ask panel: streams the answer to a question from the site's own ~ask route (server-sent
// events read with fetch), shows its sources as links, and sends the reader's rating. Without
// this script the panel's form still works: the answer opens as a page of its own.
(function () {
  "use strict";
  var panel = document.querySelector("[data-ask]");
  if (!panel || !window.fetch || !window.TextDecoder) return;
  var form = panel.querySelector("[data-ask-form]");
  var out = panel.querySelector("[data-ask-answer]");
  var sources = panel.querySelector("[data-ask-sources]");
  var rating = panel.querySelector("[data-ask-rating]");
  var thanks = panel.querySelector("[data-ask-thanks]");
  var button = form.querySelector("button[type=submit]");
  var previous = [], current = null, controller = null;

  // safeURL keeps links to http(s) and site-relative addresses only.
  function safeURL(u) {
    return /^(https?:\/\/|\/)/i.test(u) ? u : null;
  }

  // render writes markdown as paragraphs of text whose [label](url) citations are links; nothing
  // of it is ever read as HTML.
  function render(md) {
    out.textContent = "";
    md.split(/\n{2,}/).forEach(function (para) {
      if (!para.trim()) return;
      var p = document.createElement("p");
      var re = /\[([^\]\n]{1,200})\]\(([^)\s]{1,2048})\)/g, at = 0, m;
      while ((m = re.exec(para)) !== null) {
        p.appendChild(document.createTextNode(para.slice(at, m.index)));
        var url = safeURL(m[2]);
        if (url) {
          var a = document.createElement("a");
          a.href = url;
          a.textContent = "[" + m[1] + "]";
          p.appendChild(a);
        } else {
          p.appendChild(document.createTextNode(m[0]));
        }
        at = re.lastIndex;
      }
      p.appendChild(document.createTextNode(para.slice(at)));
      out.appendChild(p);
    });
  }

  function show(ev) {
    render(ev.markdown || "");
    sources.textContent = "";
    (ev.sources || []).forEach(function (s) {
      var url = safeURL(s.url);
      if (!url) return;
      var li = document.createElement("li"), a = document.createElement("a");
      a.href = url;
      a.textContent = s.title || url;
      li.appendChild(a);
      sources.appendChild(li);
    });
    sources.hidden = sources.children.length === 0;
    current = ev;
  }

  function fail(message) {
    out.hidden = false;
    out.textContent = message || "The answer could not be shown. Please try again.";
  }

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var q = form.elements.q.value.trim();
    if (!q) return;
    if (controller) controller.abort();
    controller = new AbortController();
    var params = new URLSearchParams();
    params.set("q", q);
    previous.slice(-10).forEach(function (p) { params.append("previous", p); });
    out.hidden = false;
    out.textContent = "…";
    sources.hidden = true;
    rating.hidden = true;
    thanks.hidden = true;
    button.disabled = true;
    current = null;
    fetch(form.action + "?" + params.toString(), {headers: {Accept: "text/event-stream"}, credentials: "same-origin", signal: controller.signal})
      .then(function (res) {
        if (!res.ok || !res.body) {
          return res.text().then(function (t) { fail(t.trim()); });
        }
        var reader = res.body.getReader(), decoder = new TextDecoder(), buf = "";
        function pump() {
          return reader.read().then(function (r) {
            if (r.done) return;
            buf += decoder.decode(r.value, {stream: true});
            var cut;
            while ((cut = buf.indexOf("\n\n")) >= 0) {
              var block = buf.slice(0, cut), event = "message", data = "";
              buf = buf.slice(cut + 2);
              block.split("\n").forEach(function (line) {
                if (line.indexOf("event:") === 0) event = line.slice(6).trim();
                if (line.indexOf("data:") === 0) data += line.slice(5).trim();
              });
              if (!data) continue;
              var ev;
              try { ev = JSON.parse(data); } catch (err) { continue; }
              if (event === "error") { fail(ev.message); continue; }
              show(ev);
              if (ev.done) {
                previous.push(q);
                rating.hidden = !ev.found;
                rating.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
              }
            }
            return pump();
          });
        }
        return pump();
      })
      .catch(function (err) { if (err.name !== "AbortError") fail(); })
      .then(function () { button.disabled = false; });
  });

  rating.addEventListener("click", function (e) {
    var b = e.target.closest("button[data-helpful]");
    if (!b || !current) return;
    rating.querySelectorAll("button").forEach(function (x) { x.disabled = true; });
    var body = {question: previous[previous.length - 1] || "", helpful: b.getAttribute("data-helpful") === "true",
      sources: (current.sources || []).map(function (s) { return s.url; }).slice(0, 10)};
    fetch(form.action + "/rating", {method: "POST", headers: {"Content-Type": "application/json"}, credentials: "same-origin", body: JSON.stringify(body)})
      .then(function (res) { thanks.hidden = !res.ok; });
  });
})();
