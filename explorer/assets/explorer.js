// Bindery's GraphiQL: offline (every asset is served by Bindery), the Authorization header
// pre-filled as a template, the schema fetched again whenever the headers change, and tokens never
// written to the browser's storage: the headers editor is not persisted, and history and favourites
// are stored without their headers.
//
// Until a token replaces the placeholder, nothing is sent: the side panel says how to get one and
// that the schema loads then, and the response pane repeats it. Header values are checked before
// sending, since a browser refuses (with a TypeError) any that holds a character beyond Latin-1.
(function () {
  var endpoint = document.currentScript.getAttribute('data-endpoint');
  // Every character is ASCII: a header value must be Latin-1 to be sent at all.
  var placeholder = '<paste your API token here>';
  var template = '{\n  "Authorization": "Bearer ' + placeholder + '"\n}';
  var needToken = 'Set your API token to load the schema and run queries: in the Headers tab ' +
    'below, replace ' + placeholder + ' with a token (bdy_...). An operator issues one with ' +
    '"bindery admin token create --email you@example.com".';

  // Storage for GraphiQL: localStorage, minus anything that can hold a token.
  function stripHeaders(value) {
    try {
      var data = JSON.parse(value);
      ['queries', 'favorites'].forEach(function (k) {
        (data[k] || []).forEach(function (item) { delete item.headers; });
      });
      (data.tabs || []).forEach(function (tab) { tab.headers = null; });
      return JSON.stringify(data);
    } catch (e) {
      return value;
    }
  }
  var storage = {
    getItem: function (key) {
      if (/headers$/.test(key)) return null;
      return window.localStorage.getItem('bindery:' + key);
    },
    setItem: function (key, value) {
      if (/headers$/.test(key)) return;
      window.localStorage.setItem('bindery:' + key, stripHeaders(value));
    },
    removeItem: function (key) { window.localStorage.removeItem('bindery:' + key); },
    clear: function () {},
    get length() { return 0; }
  };

  // tokenProblem says what keeps the headers from carrying a token, or '' when they do.
  function tokenProblem(parsed) {
    var auth = parsed && (parsed.Authorization || parsed.authorization);
    if (typeof auth !== 'string' || auth.indexOf(placeholder) >= 0 || !/^Bearer\s+\S+$/.test(auth.trim())) {
      return needToken;
    }
    for (var name in parsed) {
      if (/[^\x00-\xff]/.test(String(parsed[name]))) {
        return 'The ' + name + ' header holds a character a browser cannot send (only Latin-1 ' +
          'text can be): paste the token alone, as "Bearer bdy_...".';
      }
    }
    return '';
  }
  function currentHeaders() {
    try { return JSON.parse(headers || '{}'); } catch (e) { return null; }
  }

  var send = GraphiQL.createFetcher({ url: endpoint });
  function fetcher(params, opts) {
    var problem = tokenProblem(opts && opts.headers ? opts.headers : currentHeaders());
    if (problem) return Promise.resolve({ errors: [{ message: problem }] });
    return send(params, opts);
  }

  // The side panel opened while no token is set.
  var tokenPlugin = {
    title: 'API token',
    icon: function () {
      return React.createElement('svg', { viewBox: '0 0 24 24', width: 20, height: 20, 'aria-hidden': true },
        React.createElement('path', { fill: 'none', stroke: 'currentColor', strokeWidth: 1.5,
          d: 'M15 7a4 4 0 1 1-3.9 5H3v3h3v3h3v-3h2.1A4 4 0 0 1 15 7z' }));
    },
    content: function () {
      var p = function (text) { return React.createElement('p', null, text); };
      return React.createElement('div', { className: 'bindery-token-help' },
        React.createElement('div', { className: 'graphiql-doc-explorer-title' }, 'Set your API token'),
        p('The schema, and with it the documentation, loads once a token is set.'),
        p('Open the Headers tab below the query editor and replace ' + placeholder +
          ' with your API token (it starts with bdy_). The schema is fetched again as soon as ' +
          'you stop typing, and the Docs button shows every type and field.'),
        p('No token yet? An operator issues one with "bindery admin token create --email ' +
          'you@example.com". The token stays in this tab only: it is never saved in the browser.'));
    }
  };

  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  var headers = template;
  var generation = 0;
  var timer = null;

  // Re-mounting GraphiQL (a new key) runs its introspection again, with the current headers; the
  // query and variables come back from storage.
  function render() {
    var ready = tokenProblem(currentHeaders()) === '';
    root.render(React.createElement(GraphiQL, {
      key: 'g' + generation,
      fetcher: fetcher,
      storage: storage,
      plugins: [tokenPlugin],
      visiblePlugin: ready ? 'Documentation Explorer' : tokenPlugin,
      headers: headers,
      defaultHeaders: template,
      shouldPersistHeaders: false,
      isHeadersEditorEnabled: true,
      defaultEditorToolsVisibility: 'headers',
      onEditHeaders: function (value) {
        headers = value;
        clearTimeout(timer);
        timer = setTimeout(function () { generation++; render(); }, 700);
      }
    }));
  }
  render();
})();
