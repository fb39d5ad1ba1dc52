// Juice's sign-in page: Sign in with Apple JS runs the sign-in in its popup and hands the
// authorization to this page, which posts it to Juice's server. There the kit completes it with the
// same rules as Apple's form_post callback, for this browser only (its binding cookie).
(function () {
  "use strict";
  var form = document.getElementById("apple-popup-result");
  var status = document.getElementById("apple-status");
  if (!form || !status) { return; }

  var MESSAGES = {
    popup_closed_by_user: "The Sign in with Apple window was closed before you finished. Press the button to try again.",
    popup_blocked_by_browser: "Your browser blocked the Sign in with Apple window. Allow pop-ups for this site, or sign in with Apple in this window.",
    user_cancelled_authorize: "Sign in with Apple was cancelled."
  };

  function show(text) {
    status.textContent = text;
    status.hidden = !text;
  }

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
    show(MESSAGES[error] || "Sign in with Apple did not complete. Please try again.");
  });
})();
