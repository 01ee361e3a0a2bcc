"""The web layer shared by the shop's console and the web chat: pages rendered from Jinja2
templates with autoescaping (`web.pages`), the assets the bot serves itself (`web/static`, no
internet needed), and the signed cookies they set (`web.cookies`)."""
