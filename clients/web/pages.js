// A small registry of pages: each module (the game, the front page, and later accounts,
// the lobby, correspondence) registers a hash route and a function that fills <main>.
// A page returns a function that stops what it started (streams, timers) when left.
const routes = [];

// Each route change is a new visit. A page that draws after waiting for the server checks
// that its visit is still the current one (`stillOn`): a page opened quickly after it must
// not be drawn over. A stale drawing is dropped and counted on <html data-stale-drops>.
let visit = 0;
export function beginVisit() { visit += 1; return visit; }
export function currentVisit() { return visit; }
export function stillOn(mine) {
  if (mine === visit) return true;
  const root = document.documentElement;
  root.dataset.staleDrops = String(Number(root.dataset.staleDrops || 0) + 1);
  return false;
}

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
