/*
 * Sign in with Apple JS, as served by this Apple ID server (spec §13). Written for this project;
 * it follows Apple's documented behaviour so a page moves between Apple and this server by
 * changing the script's host. The server fills in the settings (locale, titles, logo) below.
 */
(function (settings) {
  "use strict";

  var ERRORS = {
    closed: "popup_closed_by_user",
    blocked: "popup_blocked_by_browser",
    newFlow: "user_trigger_new_signin_flow"
  };
  var POPUP_NAME = "Apple authentication";
  var POPUP_SIZE = 700;
  var POLL_INTERVAL = 300;

  // The script's own origin is the server that answers sign-ins, unless the page says otherwise.
  var current = document.currentScript;
  var servedFrom = current && current.src ? new URL(current.src, window.location.href).origin : settings.serverURL;

  var state = { config: null, configuredBy: 0, pending: null };

  function meta(name) {
    var element = document.querySelector('meta[name="appleid-signin-' + name + '"]');
    return element ? element.getAttribute("content") : null;
  }

  function requireString(value, name) {
    if (typeof value !== "string") { throw new Error('The "' + name + '" should be a string.'); }
  }

  function optionalString(value, name) {
    if (value !== undefined && value !== null) { requireString(value, name); }
  }

  function validated(input) {
    if (input === null || typeof input !== "object") { throw new Error('The "clientId" should be a string.'); }
    requireString(input.clientId, "clientId");
    requireString(input.redirectURI, "redirectURI");
    optionalString(input.scope, "scope");
    optionalString(input.state, "state");
    optionalString(input.nonce, "nonce");
    optionalString(input.baseURI, "baseURI");
    return {
      clientId: input.clientId,
      redirectURI: input.redirectURI,
      scope: input.scope || undefined,
      state: input.state || undefined,
      nonce: input.nonce || undefined,
      usePopup: input.usePopup === true || input.usePopup === "true",
      baseURI: (input.baseURI || meta("dev-uri") || servedFrom).replace(/\/+$/, ""),
      path: meta("dev-path") || "/auth/authorize"
    };
  }

  function fromMetaTags() {
    if (meta("client-id") === null) { return null; }
    return validated({
      clientId: meta("client-id"),
      redirectURI: meta("redirect-uri"),
      scope: meta("scope"),
      state: meta("state"),
      nonce: meta("nonce"),
      usePopup: meta("use-popup")
    });
  }

  function uuid() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (byte) { return (byte + 0x100).toString(16).slice(1); }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  // Parameter order as Apple's script sends them (spec §13.2).
  function authorizeURL(config, frameID, trigger) {
    var parameters = [
      ["client_id", config.clientId], ["redirect_uri", config.redirectURI], ["response_type", "code id_token"],
      ["state", config.state], ["scope", config.scope], ["nonce", config.nonce],
      ["response_mode", config.usePopup ? "web_message" : "form_post"], ["frame_id", frameID],
      ["m", String(state.configuredBy) + String(trigger)], ["v", settings.version]
    ];
    var query = parameters.filter(function (pair) { return pair[1] !== undefined; })
      .map(function (pair) { return encodeURIComponent(pair[0]) + "=" + encodeURIComponent(pair[1]); }).join("&");
    return config.baseURI + config.path + "?" + query;
  }

  function dispatch(name, detail) {
    document.dispatchEvent(new CustomEvent(name, { detail: detail }));
  }

  function finish(pending, error, result) {
    if (state.pending !== pending) { return; }
    state.pending = null;
    window.clearInterval(pending.timer);
    window.removeEventListener("message", pending.listener);
    if (error) {
      dispatch("AppleIDSignInOnFailure", { error: error });
      pending.reject({ error: error });
    } else {
      dispatch("AppleIDSignInOnSuccess", result);
      pending.resolve(result);
    }
  }

  // Only the authorization server's own page, answering this popup's frame_id, is listened to.
  function onMessage(pending, origin) {
    return function (event) {
      if (event.origin !== origin) { return; }
      var message = event.data;
      if (typeof message === "string") {
        try { message = JSON.parse(message); } catch (ignored) { return; }
      }
      if (!message || message.method !== "oauthDone" || message.frame_id !== pending.frameID || !message.data) { return; }
      var data = message.data;
      if (data.error) { return finish(pending, data.error); }
      var result = { authorization: data.authorization };
      if (data.user) { result.user = data.user; }
      finish(pending, null, result);
    };
  }

  function popupFeatures() {
    var left = Math.max(0, (window.screenX || 0) + ((window.outerWidth || POPUP_SIZE) - POPUP_SIZE) / 2);
    var top = Math.max(0, (window.screenY || 0) + ((window.outerHeight || POPUP_SIZE) - POPUP_SIZE) / 2);
    return "width=" + POPUP_SIZE + ",height=" + POPUP_SIZE + ",left=" + Math.round(left) + ",top=" + Math.round(top) +
      ",resizable=no,location=no,menubar=no";
  }

  function signIn(signInConfig, trigger) {
    if (!state.config) { throw new Error('The "init" function must be called first.'); }
    if (signInConfig !== undefined && (signInConfig === null || typeof signInConfig !== "object")) {
      throw new Error('The "signinConfig" must be "object".');
    }
    var config = Object.assign({}, state.config);
    if (signInConfig) {
      ["scope", "redirectURI", "state", "nonce"].forEach(function (key) {
        if (signInConfig[key] !== undefined) { requireString(signInConfig[key], key); config[key] = signInConfig[key]; }
      });
    }
    var frameID = uuid();
    var url = authorizeURL(config, frameID, trigger || 1);
    if (!config.usePopup) {
      window.location.assign(url);
      return new Promise(function () {});
    }
    if (state.pending) { finish(state.pending, ERRORS.newFlow); }
    return new Promise(function (resolve, reject) {
      var pending = { resolve: resolve, reject: reject, frameID: frameID };
      state.pending = pending;
      var popup = null;
      try { popup = window.open(url, POPUP_NAME, popupFeatures()); } catch (ignored) { popup = null; }
      if (!popup) { return finish(pending, ERRORS.blocked); }
      pending.listener = onMessage(pending, new URL(config.baseURI).origin);
      window.addEventListener("message", pending.listener);
      pending.timer = window.setInterval(function () {
        // A closed window may still have its answer queued: give it one more turn.
        if (popup.closed) { window.setTimeout(function () { finish(pending, ERRORS.closed); }, 50); }
      }, POLL_INTERVAL);
    });
  }

  function init(config) {
    state.config = validated(config);
    state.configuredBy = 1;
  }

  // The button (spec §13.4), drawn in the DOM from #appleid-signin's data-* attributes.
  function clamp(value, low, high, fallback) {
    var number = parseInt(value, 10);
    return isNaN(number) ? fallback : Math.min(high, Math.max(low, number));
  }

  function logoSVG(height, color) {
    var width = height * settings.logo.width / settings.logo.height;
    return '<svg xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false" width="' + width.toFixed(1) +
      '" height="' + height.toFixed(1) + '" viewBox="0 0 ' + settings.logo.width + " " + settings.logo.height +
      '" style="flex:none;display:block"><path fill="' + color + '" d="' + settings.logo.path + '"/></svg>';
  }

  var LOGO_SHARE = { small: 0.38, medium: 0.47, large: 0.57 };

  function renderButton() {
    var host = document.getElementById("appleid-signin");
    if (!host) { return; }
    var data = host.dataset;
    var mode = ["center-align", "left-align", "logo-only"].indexOf(data.mode) >= 0 ? data.mode : "center-align";
    var type = (data.type || "sign-in").replace(" ", "-");
    if (!settings.titles[type]) { type = "sign-in"; }
    var color = data.color === "white" ? "white" : "black";
    var ink = color === "white" ? "#000" : "#fff";
    var border = data.border !== "false";
    var radius = clamp(data.borderRadius, 0, 50, 15);
    var fixedHeight = data.height && data.height !== "100%" ? clamp(data.height, 30, 64, 30) : null;
    var fixedWidth = data.width && data.width !== "100%" ? clamp(data.width, 130, 375, 140) : null;
    var height = fixedHeight || Math.min(64, Math.max(30, host.clientHeight || 30));
    if (mode === "logo-only") { fixedWidth = height; }
    var title = settings.titles[type];

    var button = document.createElement("div");
    button.setAttribute("role", "button");
    button.setAttribute("tabindex", "0");
    button.setAttribute("aria-label", title);
    button.style.cssText = "box-sizing:border-box;display:flex;align-items:center;cursor:pointer;overflow:hidden;" +
      "font-family:-apple-system,'SF Pro Text','Noto Sans',system-ui,sans-serif;white-space:nowrap;" +
      "justify-content:" + (mode === "left-align" ? "flex-start" : "center") + ";" +
      "width:" + (fixedWidth ? fixedWidth + "px" : "100%") + ";height:" + height + "px;" +
      "min-width:" + (mode === "logo-only" ? 30 : 130) + "px;max-width:375px;" +
      "background:" + color + ";color:" + ink + ";border-radius:" + (radius / 100 * height).toFixed(1) + "px;" +
      "border:" + (border ? "1px solid #000" : "none") + ";font-size:" + Math.round(0.43 * height) + "px;";
    var share = mode === "left-align" ? (LOGO_SHARE[data.logoSize] || LOGO_SHARE.medium) : LOGO_SHARE.medium;
    var logo = logoSVG(share * height, ink);
    var label = document.createElement("span");
    label.textContent = title;
    label.setAttribute("aria-hidden", "true");
    if (mode === "logo-only") {
      button.innerHTML = logo;
    } else if (mode === "left-align") {
      var logoPosition = clamp(data.logoPosition, 0, 182, 0);
      var labelPosition = clamp(data.labelPosition, 0, 182, 0);
      // The same geometry as the server's left-aligned image: margins kept, the label after the logo.
      var logoLeft = Math.max(Math.ceil(height / 10), logoPosition);
      var logoRight = logoLeft + share * height * settings.logo.width / settings.logo.height;
      var labelLeft = Math.max(logoRight + 0.28 * 0.43 * height, labelPosition);
      button.innerHTML = logo;
      button.firstChild.style.marginLeft = logoLeft + "px";
      label.style.marginLeft = (labelLeft - logoRight).toFixed(1) + "px";
      button.appendChild(label);
    } else {
      button.innerHTML = logo;
      label.style.marginLeft = (0.28 * 0.43 * height).toFixed(1) + "px";
      button.appendChild(label);
    }
    var start = function (event) {
      if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") { return; }
      event.preventDefault();
      try {
        var result = signIn(undefined, 2);
        if (result && result.catch) { result.catch(function () {}); }
      } catch (error) {
        if (window.console) { window.console.error(error); }
      }
    };
    button.addEventListener("click", start);
    button.addEventListener("keydown", start);
    host.innerHTML = "";
    host.appendChild(button);
    if (mode !== "logo-only") { fitLabel(button, label, mode, Math.round(0.43 * height)); }
  }

  // Like the images: the title shrinks until 8 % of the width stays free on each side.
  function fitLabel(button, label, mode, size) {
    if (settings.rightToLeft) { label.dir = "rtl"; }
    for (var attempt = 0; attempt < 4; attempt += 1) {
      var box = button.getBoundingClientRect();
      var labelBox = label.getBoundingClientRect();
      var logoBox = button.firstChild.getBoundingClientRect();
      if (!box.width || !labelBox.width) { return; }
      var used = mode === "left-align" ? labelBox.right - box.left : labelBox.right - logoBox.left + 0.16 * box.width;
      var limit = mode === "left-align" ? 0.92 * box.width : box.width;
      if (used <= limit + 0.5) { return; }
      size = Math.max(6, Math.floor(size * (limit - (used - labelBox.width)) / labelBox.width));
      label.style.fontSize = size + "px";
    }
  }

  window.AppleID = window.AppleID || {};
  window.AppleID.auth = {
    init: init,
    signIn: function (signInConfig) { return signIn(signInConfig, 1); },
    renderButton: renderButton
  };

  try {
    var configured = fromMetaTags();
    if (configured) { state.config = configured; state.configuredBy = 2; }
  } catch (error) {
    if (window.console) { window.console.error(error); }
  }

  function loaded() {
    renderButton();
    document.dispatchEvent(new Event("AppleIDSigInLoaded"));
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", loaded);
  } else {
    loaded();
  }
})(/* SETTINGS */);
