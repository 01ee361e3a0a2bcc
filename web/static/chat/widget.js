// The sommelier on a shop's own site, as one line:
//   <script src="https://BOT/chat/widget.js" data-wine-id="…" data-product-id="…" async></script>
// A floating button opens the web chat (/chat?embed=1) in a panel: an iframe on the bot's
// origin, so the shop's page never sees the conversation and the chat never sees the page.
// Styles are set through the CSSOM (no <style>, no inline markup), so a shop's strict CSP
// needs nothing but this script's origin in script-src and frame-src.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || window.__sommelierWidget) return;
  window.__sommelierWidget = true;
  var base = new URL(script.src, location.href).origin;
  var wine = script.getAttribute("data-wine-id") || script.getAttribute("data-product-id") || "";
  var label = script.getAttribute("data-label") || "🍷 Спросить сомелье";

  function css(node, rules) {
    for (var key in rules) node.style.setProperty(key, rules[key]);
    return node;
  }

  var opener = css(document.createElement("button"), {
    position: "fixed", right: "16px", bottom: "16px", "z-index": "2147483000",
    padding: "12px 18px", border: "0", "border-radius": "999px", background: "#7b1f3a",
    color: "#fff", font: "600 16px/1.2 system-ui, sans-serif", cursor: "pointer",
    "box-shadow": "0 4px 14px rgba(0,0,0,.25)",
  });
  opener.type = "button";
  opener.textContent = label;
  opener.setAttribute("aria-expanded", "false");
  opener.setAttribute("aria-controls", "sommelier-panel");
  opener.id = "sommelier-open";

  var panel = css(document.createElement("div"), {
    position: "fixed", "z-index": "2147483001", display: "none", "flex-direction": "column",
    background: "#fff", "box-shadow": "0 8px 30px rgba(0,0,0,.3)", overflow: "hidden",
  });
  panel.id = "sommelier-panel";
  panel.setAttribute("role", "dialog");
  panel.setAttribute("aria-label", "Сомелье");

  var close = css(document.createElement("button"), {
    "align-self": "flex-end", margin: "4px", padding: "6px 10px", border: "1px solid #e6dfd8",
    "border-radius": "8px", background: "#fbf8f5", font: "14px system-ui, sans-serif",
    cursor: "pointer", color: "#1d1b1a",
  });
  close.type = "button";
  close.textContent = "✕ Закрыть";

  var frame = css(document.createElement("iframe"), { border: "0", flex: "1", width: "100%" });
  frame.title = "Сомелье — чат с подбором вина";
  var src = base + "/chat?embed=1";
  if (wine) src += "&wine=" + encodeURIComponent(wine);

  function place() {
    var phone = window.innerWidth < 600;
    css(panel, phone
      ? { left: "0", top: "0", right: "0", bottom: "0", width: "auto", height: "auto",
          "border-radius": "0" }
      : { left: "auto", top: "auto", right: "16px", bottom: "76px", width: "400px",
          height: "min(640px, calc(100vh - 96px))", "border-radius": "14px" });
  }

  function toggle(open) {
    if (open && !frame.src) frame.src = src; // the chat loads on first open only
    place();
    panel.style.setProperty("display", open ? "flex" : "none");
    opener.setAttribute("aria-expanded", String(open));
    if (open) frame.focus();
    else opener.focus();
  }

  opener.addEventListener("click", function () {
    toggle(opener.getAttribute("aria-expanded") !== "true");
  });
  close.addEventListener("click", function () { toggle(false); });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && opener.getAttribute("aria-expanded") === "true") toggle(false);
  });
  window.addEventListener("resize", place);

  panel.append(close, frame);
  document.body.append(opener, panel);
})();
