// Bindery's GraphiQL: offline (every asset is served by Bindery), the Authorization header
// pre-filled as a template, the schema fetched again whenever the headers change, and tokens never
// written to the browser's storage: the headers editor is not persisted, and history and favourites
// are stored without their headers.
(function () {
  var endpoint = document.currentScript.getAttribute('data-endpoint');
  var template = '{\n  "Authorization": "Bearer <your API token: bdy_…>"\n}';

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

  var fetcher = GraphiQL.createFetcher({ url: endpoint });
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  var headers = template;
  var generation = 0;
  var timer = null;

  // Re-mounting GraphiQL (a new key) runs its introspection again, with the current headers; the
  // query and variables come back from storage.
  function render() {
    root.render(React.createElement(GraphiQL, {
      key: 'g' + generation,
      fetcher: fetcher,
      storage: storage,
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
