// Starts Swagger UI on the served OpenAPI document; no external requests (no validator badge).
// An opened operation is ready to Execute, its examples filled in: no "Try it out" click first.
window.ui = SwaggerUIBundle({
  url: document.currentScript.dataset.spec,
  dom_id: "#swagger-ui",
  deepLinking: true,
  tryItOutEnabled: true,
  validatorUrl: null,
});
