// Starts Swagger UI on the served OpenAPI document; no external requests (no validator badge).
window.ui = SwaggerUIBundle({
  url: document.currentScript.dataset.spec,
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
});
