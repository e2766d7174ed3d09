// Starts Swagger UI on the served OpenAPI document; no external requests (no validator badge).
// An opened operation is ready to Execute, its examples filled in: no "Try it out" click first.
// No list of every schema under the operations: each operation shows its own, and every click
// re-renders the whole page, which the list made a fifth slower. Answers
// uncoloured: colouring a whole list (over 300 KB) holds the page for seconds.
window.ui = SwaggerUIBundle({
  url: document.currentScript.dataset.spec,
  dom_id: "#swagger-ui",
  deepLinking: true,
  tryItOutEnabled: true,
  defaultModelsExpandDepth: -1,
  validatorUrl: null,
  syntaxHighlight: { activated: false },
});
