// The reference page (/docs) draws every operation at once.
//
// Swagger UI 5.3x windows its operation list once it holds 150 rows (tags and operations): only the rows near the
// viewport are in the page, and the rest are drawn as it scrolls. With both faces (/v2 and /v3) the reference has
// more rows than that, so the page's own search (Ctrl+F), an accessibility check and a reader scrolling past the
// estimated heights found operations missing. A few hundred collapsed rows are cheap to draw, so this plugin puts
// back the list Swagger UI draws below its threshold: one OperationTag per tag, one OperationContainer per operation.
//
// It also names two controls Swagger UI leaves unnamed or nested (see wrapComponents below); the colours are in
// theme.css.
//
// Loaded after swagger-initializer.js and before the page's load event, when that script creates the UI: it wraps
// the global SwaggerUIBundle so that the UI is created with this plugin added.

(() => {
  const original = window.SwaggerUIBundle;
  if (typeof original !== 'function') return;

  function FullOperationList(system) {
    const h = system.React.createElement;
    function Operations({ specSelectors, getComponent, oas3Selectors, layoutSelectors, layoutActions, getConfigs }) {
      const taggedOperations = specSelectors.taggedOperations();
      const methods = specSelectors.validOperationMethods();
      if (taggedOperations.size === 0) return h('h3', null, 'No operations defined in spec!');
      const OperationTag = getComponent('OperationTag');
      const OperationContainer = getComponent('OperationContainer', true);
      return h(
        'div',
        null,
        taggedOperations
          .map((tagObj, tag) =>
            h(
              OperationTag,
              { key: `operation-${tag}`, tagObj, tag, oas3Selectors, layoutSelectors, layoutActions, getConfigs, getComponent, specUrl: specSelectors.url() },
              h(
                'div',
                { className: 'operation-tag-content' },
                tagObj
                  .get('operations')
                  .map((op) => {
                    const path = op.get('path');
                    const method = op.get('method');
                    if (methods.indexOf(method) === -1) return null;
                    return h(OperationContainer, { key: `${path}-${method}`, specPath: op.get('specPath'), op, path, method, tag });
                  })
                  .toArray(),
              ),
            ),
          )
          .valueSeq()
          .toArray(),
      );
    }
    return {
      components: { operations: Operations },
      wrapComponents: {
        // An operation's path is a link for deep linking, drawn inside the button that opens the operation: a link
        // in a button is unreachable by keyboard and read twice (axe: nested-interactive). Opening an operation
        // still puts its address in the URL (deepLinking), so the path is drawn as text.
        OperationSummaryPath: (Original) =>
          function PathAsText(props) {
            return h(Original, { ...props, operationProps: props.operationProps.set('isDeepLinkingEnabled', false) });
          },
        // The server picker is a select whose only label is a heading beside it (axe: select-name).
        Servers: (Original) =>
          function LabelledServers(props) {
            const box = system.React.useRef(null);
            system.React.useEffect(() => {
              box.current?.querySelector('select#servers')?.setAttribute('aria-label', 'Server');
            });
            return h('div', { ref: box }, h(Original, props));
          },
      },
    };
  }

  function SwaggerUIBundle(config) {
    return original({ ...config, plugins: [...(config.plugins ?? []), FullOperationList] });
  }
  window.SwaggerUIBundle = Object.assign(SwaggerUIBundle, original);
})();
