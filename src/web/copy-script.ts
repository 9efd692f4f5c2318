/**
 * The console's one script: a "Copy" button beside a value shown once (the DNS challenge, the
 * provider key). Without script the buttons stay hidden and the value is selected and copied by
 * hand from its read-only field; with it, a press copies the field and says so. It is inline and
 * named in the page's Content-Security-Policy by its SHA-256, like the progress script.
 */

/** The script's text, exactly as served; its hash is taken over these characters. */
export const COPY_SCRIPT = `
(function () {
  var buttons = document.querySelectorAll("button[data-copy]");
  Array.prototype.forEach.call(buttons, function (button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    var status = document.getElementById(button.getAttribute("data-copy") + "-copied");
    if (!field) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var say = function (text) { if (status) status.textContent = text; };
      field.focus();
      field.select();
      var byCommand = function () {
        say(document.execCommand("copy") ? "Copied." : "Select the text and copy it by hand.");
      };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(field.value).then(function () { say("Copied."); }, byCommand);
      } else {
        byCommand();
      }
    });
  });
})();
`;

let hashed: Promise<string> | undefined;

/** The CSP source of the script: `sha256-` and the base64 of its digest (computed once per isolate). */
export function copyScriptHash(): Promise<string> {
  hashed ??= crypto.subtle.digest("SHA-256", new TextEncoder().encode(COPY_SCRIPT)).then((digest) => {
    const bytes = String.fromCharCode(...new Uint8Array(digest));
    return `sha256-${btoa(bytes)}`;
  });
  return hashed;
}
