/**
 * The one script of the pages for people: while a slow form (a live check, an MCP verification)
 * is being answered, it shows a progress indicator with the seconds elapsed and keeps the button
 * from being pressed twice. The forms work the same without it. It is inline and named in the
 * page's Content-Security-Policy by its SHA-256, so exactly this text may run and nothing else.
 */

/** The script's text, exactly as served; its hash is taken over these characters. */
export const PROGRESS_SCRIPT = `
(function () {
  var forms = document.querySelectorAll("form[data-progress]");
  Array.prototype.forEach.call(forms, function (form) {
    var status = document.getElementById(form.getAttribute("data-progress"));
    var button = form.querySelector("button[type=submit]");
    var timer = 0;
    form.addEventListener("submit", function () {
      if (!status) return;
      var seconds = status.querySelector("[data-seconds]");
      var started = Date.now();
      status.hidden = false;
      if (button) button.disabled = true;
      timer = setInterval(function () {
        if (seconds) seconds.textContent = String(Math.round((Date.now() - started) / 1000));
      }, 1000);
    });
    // Coming back to the page from the browser's history shows the form ready again.
    window.addEventListener("pageshow", function () {
      clearInterval(timer);
      if (status) status.hidden = true;
      if (button) button.disabled = false;
    });
  });
})();
`;

let hashed: Promise<string> | undefined;

/** The CSP source of the script: `sha256-` and the base64 of its digest (computed once per isolate). */
export function progressScriptHash(): Promise<string> {
  hashed ??= crypto.subtle.digest("SHA-256", new TextEncoder().encode(PROGRESS_SCRIPT)).then((digest) => {
    const bytes = String.fromCharCode(...new Uint8Array(digest));
    return `sha256-${btoa(bytes)}`;
  });
  return hashed;
}
