// The web chat's page: plain ES module, no build step. Every string from the server (the
// model's text, the catalog's fields) goes in through textContent; links and pictures only
// as http(s) URLs the server already checked, and checked again here.

const root = document.getElementById("chat");
const log = document.getElementById("log");
const statusLine = document.getElementById("status");
const form = document.getElementById("composer");
const question = document.getElementById("question");
const send = document.getElementById("send");
const gate = document.getElementById("gate");
const wine = root.dataset.wine || "";
let busy = false;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function httpUrl(value) {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

async function post(path, body = {}) {
  const response = await fetch(`/chat/api/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
  let data = {};
  const type = response.headers.get("Content-Type") || "";
  if (type.startsWith("application/json")) data = await response.json();
  if (!response.ok) {
    const error = new Error(data.message || "Не получилось. Попробуйте еще раз.");
    error.code = data.error;
    throw error;
  }
  return { response, data };
}

function scrollDown() {
  log.scrollTop = log.scrollHeight;
}

function say(text, className = "note") {
  const p = el("p", className, text);
  log.append(p);
  scrollDown();
  return p;
}

function userBubble(text) {
  const item = el("div", "msg msg--user");
  item.append(el("span", "visually-hidden", "Вы: "), el("p", "msg__text", text));
  log.append(item);
  scrollDown();
}

function answerBubble() {
  const item = el("article", "msg msg--bot");
  item.setAttribute("aria-label", "Ответ сомелье");
  const intro = el("p", "msg__text answer-text");
  item.append(intro);
  log.append(item);
  return { item, intro };
}

function button(label, className, onClick, ariaLabel) {
  const b = el("button", className, label);
  b.type = "button";
  if (ariaLabel) b.setAttribute("aria-label", ariaLabel);
  b.addEventListener("click", onClick);
  return b;
}

function card(w) {
  const c = el("section", "card");
  c.dataset.wineId = w.id;
  c.dataset.wineType = w.wine_type;
  c.dataset.price = String(w.price_rub);
  const image = httpUrl(w.image);
  const picture = el("div", "card__photo");
  if (image) {
    const img = el("img");
    img.src = image;
    img.alt = `Бутылка: ${w.name}`;
    img.loading = "lazy";
    img.referrerPolicy = "no-referrer";
    picture.append(img);
  } else {
    picture.append(el("span", "card__bottle", "🍷"));
    picture.setAttribute("aria-hidden", "true");
  }
  const body = el("div", "card__body");
  if (w.shop_pick) body.append(el("p", "card__shop-pick", w.shop_pick));
  body.append(el("h3", "card__name", w.name));
  if (w.details) body.append(el("p", "card__details", w.details));
  const price = el("p", "card__price");
  price.append(el("span", "card__price-now", w.price));
  if (w.old_price) {
    const old = el("s", "card__price-old", w.old_price);
    old.setAttribute("aria-label", `было ${w.old_price}`);
    price.append(" ", old);
  }
  body.append(price);
  if (w.why) body.append(el("p", "card__why", w.why));
  const actions = el("div", "card__actions");
  const up = button("👍", "chip", () => vote(w, 1, up, down), `Нравится: ${w.name}`);
  const down = button("👎", "chip", () => vote(w, -1, up, down), `Не нравится: ${w.name}`);
  up.setAttribute("aria-pressed", "false");
  down.setAttribute("aria-pressed", "false");
  const like = button("Похожие", "chip", () => similar(w, like));
  const keep = button("⭐ В избранное", "chip", () => favourite(w, keep));
  actions.append(up, down, like, keep);
  const shop = httpUrl(w.url);
  if (shop) {
    const buy = el("a", "chip chip--buy", "Купить");
    buy.href = shop;
    buy.target = "_blank";
    buy.rel = "noopener noreferrer";
    buy.setAttribute("aria-label", `Купить: ${w.name} (в магазине, новая вкладка)`);
    actions.append(buy);
  }
  body.append(actions);
  c.append(picture, body);
  return c;
}

function showAnswer(bubble, answer) {
  bubble.intro.textContent = answer.intro || "";
  const cards = el("div", "cards");
  for (const w of answer.wines || []) cards.append(card(w));
  if (cards.childElementCount) bubble.item.append(cards);
  if (answer.closing) bubble.item.append(el("p", "msg__text msg__closing", answer.closing));
  scrollDown();
}

async function vote(w, value, up, down) {
  try {
    await post("vote", { wine_id: w.id, vote: value });
    up.setAttribute("aria-pressed", String(value === 1));
    down.setAttribute("aria-pressed", String(value === -1));
    statusLine.textContent = value === 1 ? "Запомнил: нравится." : "Запомнил: не нравится.";
  } catch (error) {
    statusLine.textContent = error.message;
  }
}

async function similar(w, b) {
  if (busy) return;
  busy = true;
  b.disabled = true;
  statusLine.textContent = "Ищу похожие…";
  try {
    const { data } = await post("similar", { wine_id: w.id });
    showAnswer(answerBubble(), data);
    statusLine.textContent = "";
  } catch (error) {
    statusLine.textContent = error.message;
  } finally {
    busy = false;
    b.disabled = false;
  }
}

async function favourite(w, b) {
  try {
    await post("favourite", { wine_id: w.id });
    b.textContent = "⭐ В избранном ✓";
    b.setAttribute("aria-pressed", "true");
  } catch (error) {
    statusLine.textContent = error.message;
  }
}

// Server-sent events from a POST: read the body as it comes and split it into events.
async function* readEvents(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = "message";
      let data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) name = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      yield { name, data: data ? JSON.parse(data) : {} };
    }
  }
}

async function ask(text) {
  busy = true;
  send.disabled = true;
  userBubble(text);
  const bubble = answerBubble();
  bubble.item.setAttribute("aria-busy", "true");
  try {
    const { response } = await post("message", { text, wine });
    for await (const event of readEvents(response)) {
      if (event.name === "status") statusLine.textContent = event.data.text;
      else if (event.name === "delta") {
        bubble.intro.textContent += event.data.text;
        scrollDown();
      } else if (event.name === "final") {
        showAnswer(bubble, event.data);
        statusLine.textContent = "";
      } else if (event.name === "error") {
        bubble.intro.textContent = event.data.message;
        statusLine.textContent = "";
      }
    }
  } catch (error) {
    if (error.code === "age") showGate(true);
    bubble.intro.textContent = error.message;
    statusLine.textContent = "";
  } finally {
    bubble.item.removeAttribute("aria-busy");
    busy = false;
    send.disabled = false;
    question.focus();
  }
}

function showGate(show) {
  gate.hidden = !show;
  form.hidden = show;
  root.dataset.adult = show ? "no" : "yes";
  (show ? document.getElementById("age-yes") : question).focus();
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const text = question.value.trim();
  if (!text || busy) return;
  question.value = "";
  ask(text);
});

question.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    form.requestSubmit();
  }
});

document.getElementById("age-yes").addEventListener("click", async () => {
  try {
    await post("age", { adult: true });
    showGate(false);
  } catch (error) {
    document.getElementById("gate-note").textContent = error.message;
  }
});

document.getElementById("age-no").addEventListener("click", async () => {
  const { data } = await post("age", { adult: false });
  document.getElementById("gate-note").textContent = data.message;
});

document.getElementById("new-chat").addEventListener("click", async () => {
  try {
    await post("new");
    log.replaceChildren();
    say("Начинаем новый разговор. О каком вине поговорим?");
    if (!form.hidden) question.focus();
  } catch (error) {
    statusLine.textContent = error.message;
  }
});

document.getElementById("forget").addEventListener("click", async () => {
  if (!window.confirm("Удалить всё, что сомелье хранит о вас: разговоры, оценки, избранное?")) {
    return;
  }
  try {
    await post("forget");
    log.replaceChildren();
    say("Готово: всё удалено. Для нового разговора подтвердите возраст.");
    showGate(true);
  } catch (error) {
    statusLine.textContent = error.message;
  }
});

document.getElementById("link-telegram").addEventListener("click", async () => {
  try {
    const { data } = await post("link");
    if (data.linked) say("Этот чат уже связан с вашим Telegram.");
    else {
      say(
        `Отправьте боту в Telegram: /link ${data.code} — код действует ${data.minutes} минут ` +
          "и подходит один раз. Ваши оценки и избранное перейдут туда.",
        "note note--code",
      );
    }
  } catch (error) {
    statusLine.textContent = error.message;
  }
});

if (root.dataset.adult === "yes" && !root.classList.contains("chat--embed")) question.focus();
