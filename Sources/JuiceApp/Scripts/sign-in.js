// Juice's sign-in page: the Sign in with Apple button starts the sign-in on Juice's server (a
// same-origin POST with the page's CSRF token, which sets the browser's binding cookie and answers
// the configuration of Sign in with Apple JS), then opens the script's popup. The popup hands the
// authorization to this page, which posts it to Juice's server. There the kit completes it with the
// same rules as Apple's form_post callback, for this browser only (its binding cookie).
(function () {
  "use strict";
  var form = document.getElementById("apple-popup-result");
  var status = document.getElementById("apple-status");
  var button = document.getElementById("appleid-signin");
  var redirect = document.getElementById("sign-in-with-apple-redirect");
  if (!form || !status || !button || !redirect) { return; }

  var MESSAGES = {
    popup_closed_by_user: "The Sign in with Apple window was closed before you finished. Press the button to try again.",
    popup_blocked_by_browser: "Your browser blocked the Sign in with Apple window. Allow pop-ups for this site, or sign in with Apple in this window.",
    user_cancelled_authorize: "Sign in with Apple was cancelled."
  };
  var FAILED = "Sign in with Apple did not complete. Please try again.";

  function show(text) {
    status.textContent = text;
    status.hidden = !text;
  }

  // The sign-in does not exist until Juice's server starts it (a same-origin POST with the page's CSRF
  // token): a page view writes nothing. It is started when a person moves to the button (pointer,
  // touch or keyboard focus), so that the press itself can open the popup at once, within the
  // press's user activation; a press that comes first waits for the start.
  var prepared = null;
  function prepare() {
    if (prepared) { return prepared; }
    var started = fetch("/signin/apple/script", {
      method: "POST", credentials: "same-origin", body: new URLSearchParams(new FormData(redirect.form))
    }).then(function (response) {
      if (!response.ok) { throw new Error("the sign-in could not start"); }
      return response.json();
    });
    started.ready = null;
    started.then(function (options) { started.ready = options; }, function () { if (prepared === started) { prepared = null; } });
    prepared = started;
    return started;
  }

  function signIn(options) {
    prepared = null;  // a started sign-in is used once; the next press starts another
    window.AppleID.auth.init(options);
    window.AppleID.auth.signIn().catch(function () {});  // failures arrive as AppleIDSignInOnFailure below
  }

  // Caught before the script's own button handler (capture phase), which would sign in without a start.
  function press(event) {
    if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") { return; }
    event.preventDefault();
    event.stopPropagation();
    show("");
    var pending = prepare();
    if (pending.ready) { signIn(pending.ready); return; }
    pending.then(signIn, function () { show(FAILED); });
  }
  ["pointerenter", "touchstart", "focusin"].forEach(function (type) {
    button.addEventListener(type, function () { prepare().catch(function () {}); }, { passive: true });
  });
  button.addEventListener("click", press, true);
  button.addEventListener("keydown", press, true);

  document.addEventListener("AppleIDSignInOnSuccess", function (event) {
    var authorization = (event.detail && event.detail.authorization) || {};
    form.elements.code.value = authorization.code || "";
    form.elements.id_token.value = authorization.id_token || "";
    form.elements.state.value = authorization.state || "";
    // Apple sends the user's name only on the first authorization: keep it, as Apple's JSON.
    var user = event.detail && event.detail.user;
    form.elements.user.value = user ? JSON.stringify(user) : "";
    form.elements.user.disabled = !user;
    show("Signing you in…");
    form.submit();
  });

  document.addEventListener("AppleIDSignInOnFailure", function (event) {
    var error = event.detail && event.detail.error;
    // A second sign-in started over the first: the new one speaks for itself.
    if (error === "user_trigger_new_signin_flow") { return; }
    show(MESSAGES[error] || FAILED);
  });
})();
