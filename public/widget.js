/*
 * Berth booking widget embed script. On your page:
 *   <script src="https://<berth>/widget.js" data-customer="cus_..." async></script>
 * Optional: data-item (inventoryId), data-date (YYYY-MM-DD), data-location, data-ref (affiliate code; default: the page's ?ref=),
 * data-height (initial height in px, default 720), data-target (CSS selector of the element to fill; default: right after the script).
 * The widget opens in an iframe whose height is reserved up front (data-height) until its first step is shown, and from then on
 * follows its content both ways: taller for a long list, shorter again for a short step. Its events reach your page as
 * window 'berth' CustomEvents (event.detail = {type: 'berth:step' | 'berth:booking.completed' | ..., ...}) and, when your page has
 * a tag manager data layer, as window.dataLayer entries {event: 'berth:booking.completed', ...}.
 */
(function () {
  'use strict';
  var script = document.currentScript;
  if (!script) return;
  var src = new URL(script.src, location.href);
  var origin = src.origin;
  var d = script.dataset;
  if (!d.customer) {
    if (window.console) console.error('Berth widget: add data-customer="cus_..." to the script tag');
    return;
  }
  var pageParams = new URLSearchParams(location.search);
  var pageRef = pageParams.get('ref');
  var params = new URLSearchParams({ customer: d.customer });
  if (d.item) params.set('item', d.item);
  if (d.date) params.set('date', d.date);
  if (d.location) params.set('location', d.location);
  if (d.ref || pageRef) params.set('ref', d.ref || pageRef);
  params.set('source', location.hostname);
  // A cart-recovery link to this page (the location's bookingUrl) brings the renter's cart back into the widget.
  if (pageParams.get('cartRecoveryId')) params.set('cartRecoveryId', pageParams.get('cartRecoveryId'));
  var frame = document.createElement('iframe');
  frame.src = origin + '/widget?' + params.toString();
  frame.title = d.title || 'Online booking';
  frame.setAttribute('loading', 'lazy');
  frame.setAttribute('allow', 'payment');
  // The first height is reserved (no minimum: the widget's height messages may make the frame shorter than this).
  frame.style.cssText = 'display:block;width:100%;border:0;height:' + (parseInt(d.height, 10) || 720) + 'px';
  var target = d.target && document.querySelector(d.target);
  if (target) target.appendChild(frame);
  else script.parentNode.insertBefore(frame, script.nextSibling);
  window.addEventListener('message', function (e) {
    if (e.origin !== origin || e.source !== frame.contentWindow || !e.data || typeof e.data.type !== 'string' || e.data.type.indexOf('berth:') !== 0) return;
    // The content's height, smaller or larger than the frame's: the frame takes it (never below 120 px, never absurdly tall).
    if (e.data.type === 'berth:resize' && typeof e.data.height === 'number' && e.data.height > 0)
      frame.style.height = Math.min(Math.max(Math.ceil(e.data.height), 120), 100000) + 'px';
    if (e.data.type === 'berth:step' && frame.scrollIntoView && frame.getBoundingClientRect().top < 0) frame.scrollIntoView({ block: 'start' });
    try {
      window.dispatchEvent(new CustomEvent('berth', { detail: e.data }));
    } catch (err) {
      /* old browsers */
    }
    if (window.dataLayer && typeof window.dataLayer.push === 'function' && e.data.type !== 'berth:resize') {
      var entry = { event: e.data.type };
      for (var k in e.data) if (k !== 'type') entry[k] = e.data[k];
      window.dataLayer.push(entry);
    }
  });
})();
