// A small registry of pages: each module (the game, the front page, and later accounts,
// the lobby, correspondence) registers a hash route and a function that fills <main>.
// A page returns a function that stops what it started (streams, timers) when left.
const routes = [];

export function registerPage(pattern, render) {
  routes.push({ pattern, render });
}

export function findPage(hash) {
  for (const { pattern, render } of routes) {
    const match = hash.match(pattern);
    if (match) return { render, params: match.slice(1) };
  }
  return null;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

export function say(message) {
  const notice = document.getElementById("notice");
  notice.textContent = message;
  if (message) setTimeout(() => { if (notice.textContent === message) notice.textContent = ""; }, 8000);
}
