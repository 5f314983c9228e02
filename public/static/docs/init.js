/* Mounts the API reference (the bundle at /static/vendor/scalar/api-reference.js, copied from the locked npm package). */
(function () {
  'use strict';
  var el = document.getElementById('app');
  if (!window.Scalar || !el) {
    if (el) el.textContent = 'The API reference bundle is missing: run `node scripts/build-assets.mjs` (wrangler runs it before dev and deploy).';
    return;
  }
  window.Scalar.createApiReference('#app', {
    url: el.getAttribute('data-openapi-url') || '/openapi.json',
    withDefaultFonts: false,
    telemetry: false,
    hideClientButton: false,
    showDeveloperTools: 'never',
    // No calls to outside services from this page (Berth's own origin only).
    agent: { disabled: true },
    mcp: { disabled: true },
  });
})();
