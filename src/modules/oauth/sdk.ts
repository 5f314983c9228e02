/**
 * The embedded-app SDK, served as two small scripts:
 * - `/sdk/host.js` for the operator dashboard: `BerthHost.embed({...})` mounts an installed app's
 *   embed URL in an iframe and answers its token requests by `postMessage`, targeted at the app's
 *   exact origin, with session tokens it gets from POST /apps/installations/{id}/session-token
 *   (renewed a minute before they expire);
 * - `/sdk/app.js` for the app inside the iframe: `BerthApp.getSessionToken()` asks the host and
 *   resolves with the token (verify it on your server against /.well-known/jwks.json, then
 *   exchange it at POST /oauth/token for an access token).
 */
export const HOST_SDK = `/*! Berth host SDK: embeds installed apps and hands them session tokens by postMessage. */
(function () {
  'use strict';
  var scriptOrigin = (function () {
    try { return new URL(document.currentScript && document.currentScript.src).origin; } catch (e) { return location.origin; }
  })();
  function embed(opts) {
    if (!opts || !opts.container || !opts.installationId || !opts.getAuthorization) {
      throw new Error('BerthHost.embed needs container, installationId and getAuthorization');
    }
    var api = String(opts.apiBase || scriptOrigin).replace(/\\/$/, '');
    var iframe = document.createElement('iframe');
    iframe.setAttribute('sandbox', 'allow-scripts allow-forms allow-same-origin allow-popups');
    iframe.setAttribute('referrerpolicy', 'no-referrer');
    iframe.style.border = '0';
    iframe.style.width = opts.width || '100%';
    iframe.style.height = opts.height || '600px';
    var appOrigin = null;
    var current = null;
    var pending = null;
    function fetchToken() {
      if (pending) return pending;
      pending = Promise.resolve(opts.getAuthorization()).then(function (authorization) {
        return fetch(api + '/apps/installations/' + encodeURIComponent(opts.installationId) + '/session-token', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: authorization },
          body: JSON.stringify({ locationId: opts.locationId, embedLocation: opts.embedLocation, rentalId: opts.rentalId })
        });
      }).then(function (r) {
        if (!r.ok) throw new Error('Berth: session token refused (' + r.status + ')');
        return r.json();
      }).then(function (t) { current = t; pending = null; return t; }, function (e) { pending = null; throw e; });
      return pending;
    }
    function fresh() {
      if (current && Date.parse(current.expiresAt) - Date.now() > 60000) return Promise.resolve(current);
      return fetchToken();
    }
    function onMessage(ev) {
      if (ev.source !== iframe.contentWindow || ev.origin !== appOrigin) return;
      var data = ev.data || {};
      if (data.type !== 'berth:session-token:request') return;
      fresh().then(function (t) {
        iframe.contentWindow.postMessage({ type: 'berth:session-token', requestId: data.requestId, token: t.sessionToken, expiresAt: t.expiresAt }, appOrigin);
      }, function (e) {
        iframe.contentWindow.postMessage({ type: 'berth:session-token:error', requestId: data.requestId, message: String(e && e.message || e) }, appOrigin);
      });
    }
    window.addEventListener('message', onMessage);
    var ready = fetchToken().then(function (t) {
      var url = new URL(t.embedUrl);
      url.searchParams.set('installationId', opts.installationId);
      if (opts.embedLocation) url.searchParams.set('embedLocation', opts.embedLocation);
      if (opts.locationId) url.searchParams.set('locationId', opts.locationId);
      appOrigin = url.origin;
      iframe.src = url.toString();
      opts.container.appendChild(iframe);
      return iframe;
    });
    return {
      iframe: iframe,
      ready: ready,
      destroy: function () { window.removeEventListener('message', onMessage); if (iframe.parentNode) iframe.parentNode.removeChild(iframe); }
    };
  }
  window.BerthHost = { embed: embed, version: '1' };
})();
`;

export const APP_SDK = `/*! Berth app SDK: asks the Berth host for a session token by postMessage. */
(function () {
  'use strict';
  var hostOrigin = null;
  var seq = 0;
  var waiting = {};
  window.addEventListener('message', function (ev) {
    if (ev.source !== window.parent) return;
    if (hostOrigin && ev.origin !== hostOrigin) return;
    var data = ev.data || {};
    var w = waiting[data.requestId];
    if (!w) return;
    delete waiting[data.requestId];
    if (data.type === 'berth:session-token') w.resolve({ token: data.token, expiresAt: data.expiresAt, hostOrigin: ev.origin });
    else if (data.type === 'berth:session-token:error') w.reject(new Error(data.message));
  });
  function init(opts) { hostOrigin = opts && opts.hostOrigin || null; }
  function getSessionToken(timeoutMs) {
    if (window.parent === window) return Promise.reject(new Error('Berth: not running inside the Berth dashboard'));
    var id = 'r' + (++seq) + '_' + Date.now();
    return new Promise(function (resolve, reject) {
      waiting[id] = { resolve: resolve, reject: reject };
      window.parent.postMessage({ type: 'berth:session-token:request', requestId: id }, hostOrigin || '*');
      setTimeout(function () { if (waiting[id]) { delete waiting[id]; reject(new Error('Berth: no answer from the host')); } }, timeoutMs || 10000);
    });
  }
  window.BerthApp = { init: init, getSessionToken: getSessionToken, version: '1' };
})();
`;
