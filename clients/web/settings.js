// Your settings: email and notifications, vacation, webhooks. (Sessions and tokens belong
// to the accounts page, which registers its own route.)
import { api, ApiError, session } from "./api.js";
import { currentVisit, el, registerPage, say, stillOn } from "./pages.js";
import { t } from "./i18n.js";

function guarded(action) {
  return (async () => {
    try { return await action(); } catch (error) {
      say(error instanceof ApiError ? `${error.message} (${error.code || error.status})` : String(error));
      return undefined;
    }
  })();
}

async function render() {
  const main = document.getElementById("main");
  if (!session.signedIn) { location.hash = "#/"; return () => {}; }
  const visit = currentVisit();
  const [me, away] = await Promise.all([api.me(), api.vacationStatus().catch(() => ({ current: null }))]);
  if (!stillOn(visit)) return () => {};  // the player went elsewhere meanwhile
  const notify = me.notify || {};
  const email = el("input", { id: "email", type: "email", value: me.email || "", autocomplete: "email" });
  const boxes = ["your_turn", "reminder", "finished", "messages"].map((key) => el("label", { class: "inline" },
    el("input", { type: "checkbox", id: `notify-${key}`, checked: notify[key] !== false }), ` ${t(key.replace(/_/g, " "))}`));
  const digest = el("select", { id: "digest" }, ["off", "daily"].map((v) => el("option", { value: v, selected: notify.digest === v }, t(v))));
  const from = el("input", { id: "vacation-from", type: "date" });
  const until = el("input", { id: "vacation-until", type: "date" });
  const hooks = el("ul", { id: "webhooks" });
  const hookUrl = el("input", { id: "webhook-url", type: "url", placeholder: "https://…" });
  async function loadHooks() {
    const page = await api.webhooks().catch(() => ({ webhooks: [] }));
    const list = page.webhooks || page;
    hooks.replaceChildren(...(Array.isArray(list) ? list : []).map((hook) => el("li", {}, `${hook.url} (${(hook.events || []).join(", ")}) `,
      el("button", { onclick: () => guarded(async () => { await api.removeWebhook(hook.id); await loadHooks(); }) }, t("Remove")))));
  }
  const day = (iso) => new Date(iso).toLocaleDateString(document.documentElement.lang);
  const allowance = away.allowance_days !== undefined
    ? ` ${t("Days used this year:")} ${Math.round(away.used_days * 10) / 10} / ${away.allowance_days}.` : "";
  const vacation = (away.current
    ? `${t("On vacation from")} ${day(away.current.from)} ${t("until")} ${day(away.current.until)}: ${t("your clocks pause.")}`
    : t("Not on vacation.")) + allowance;
  main.replaceChildren(
    el("section", { "aria-labelledby": "mail-heading" }, el("h2", { id: "mail-heading" }, t("Email and notifications")),
      el("form", { onsubmit: (e) => { e.preventDefault(); guarded(async () => {
        const changes = { notify: Object.fromEntries(boxes.map((b) => [b.querySelector("input").id.slice(7), b.querySelector("input").checked])) };
        changes.notify.digest = digest.value;
        if (email.value && email.value !== me.email) changes.email = email.value;
        await api.updateMe(changes); say(t("Saved."));
      }); } }, el("label", { for: "email" }, `${t("Email")} `, email),
      el("fieldset", {}, el("legend", {}, t("Mail me when")), boxes), el("label", { for: "digest" }, `${t("Digest")} `, digest),
      el("button", { type: "submit", class: "primary" }, t("Save")))),
    el("section", { "aria-labelledby": "vacation-heading" }, el("h2", { id: "vacation-heading" }, t("Vacation")), el("p", { id: "vacation-state" }, vacation),
      el("form", { class: "row", onsubmit: (e) => { e.preventDefault(); guarded(async () => {
        await api.vacation(new Date(from.value).toISOString(), new Date(until.value).toISOString()); say(t("Your clocks pause.")); await render();
      }); } }, el("label", { for: "vacation-from" }, `${t("From")} `, from), el("label", { for: "vacation-until" }, `${t("until")} `, until),
      el("button", { type: "submit" }, t("Take a vacation")),
      el("button", { type: "button", onclick: () => guarded(async () => { await api.endVacation(); await render(); }) }, t("End the vacation")))),
    el("section", { "aria-labelledby": "hooks-heading" }, el("h2", { id: "hooks-heading" }, t("Webhooks")), hooks,
      el("form", { class: "row", onsubmit: (e) => { e.preventDefault(); guarded(async () => {
        const made = await api.addWebhook(hookUrl.value, ["your_turn", "reminder", "finished", "message"]);
        say(`${t("Webhook added. Its signing secret, shown once:")} ${made.secret}`); await loadHooks();
      }); } }, el("label", { for: "webhook-url" }, `${t("Address")} `, hookUrl), el("button", { type: "submit" }, t("Add a webhook")))));
  await loadHooks();
  return () => {};
}

registerPage(/^#\/settings$/, () => { render().catch((e) => say(String(e))); return () => {}; });
export { t };
