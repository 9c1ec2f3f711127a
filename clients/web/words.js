// Commands and events in words, per title: what the move list, the choices under the board
// and the move log say. Anything not named here still reads as words ("Place worker, column 2").
import { language, t } from "./i18n.js";
import { frenchWords } from "./board-words.js";

function humanize(type) {
  const words = type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function list(value) {
  return Array.isArray(value) ? (value.length ? value.join(" + ") : "nothing") : String(value);
}

// The fields of commands and events, as the move log and a move said without a template
// name them. In French each has its word (tests/e2e/test_web_french.py: every field of
// every title's commands and events); in English the field's own name reads well enough.
export const FIELDS_FR = {
  action: "action", amount: "montant", amounts: "montants", amstel_order: "ordre sur l'Amstel", aside: "de côté",
  bailiff_to: "huissier vers", bank_seconds: "réserve (s)", beats: "bat", block: "pâté", block_goods: "marchandises du pâté",
  bonus: "bonus", bonus_points: "points de bonus", bridges: "ponts", buildings: "bâtiments", buy: "achat", by: "par",
  by_florins: "en florins", card: "carte", cards: "cartes", cells: "cases", changes: "changements", choice: "choix",
  clocked_seats: "places à la pendule", coins: "pièces", colour: "couleur", colours: "couleurs", column: "colonne",
  common_docks: "quais communs", contract: "contrat", cost: "coût", count: "nombre", counted: "compté", covers: "couvre",
  craftsmen: "artisans", credit: "crédit", cross: "croix", cubes: "cubes", deadline: "échéance", deck: "pioche",
  dice: "dés", discard: "défausse", discarded: "défaussée", distances: "distances", districts_hidden: "quartiers cachés",
  districts_scored: "quartiers comptés", dock_piles: "piles de quais", draw: "pioche", eliminated: "éliminé",
  ended_at: "fini à", events: "événements", export_majorities: "majorités d'export", face: "face",
  face_down: "face cachée", faces: "faces", figure: "figurine", figures: "figurines", first: "premier",
  first_player: "premier joueur", first_round: "première manche", florins: "florins", foreman: "contremaître",
  foreman_to: "contremaître vers", fraction: "fraction", free: "gratuit", from_card: "de la carte", give: "donne",
  given: "donné", good: "marchandise", goods: "marchandises", guardian: "gardien", hands: "mains", idle_rounds: "manches sans jouer",
  idle_turns: "tours sans jouer", income: "revenu", increment_seconds: "ajout (s)", keep: "garde", kept: "gardé",
  last_round: "dernière manche", level: "niveau", lost: "perdu", market_removed: "retiré du marché",
  market_stack: "pile du marché", max_bank_seconds: "réserve maximale (s)", max_stand_ins: "remplaçants au plus",
  money: "argent", mouth_slot: "case de l'embouchure", new_good: "nouvelle marchandise", next_tile: "tuile suivante",
  node: "nœud", on_timeout: "à l'échéance", options: "options", order: "ordre", out: "sortis", pair: "paire", parties: "parties",
  partner: "partenaire", passing: "passe", paused: "en pause", pawn_to: "pion vers", pay: "paie", payment: "paiement",
  pending: "en attente", per_move: "par coup", per_move_seconds: "par coup (s)", phase: "phase", pile: "pile",
  place: "lieu", placements: "poses", plan_district: "quartier du plan", plans: "plans", points: "points",
  pontoon: "ponton", pontoons: "pontons", position: "position", price: "prix", reason: "raison",
  reminders: "rappels", remove_x: "colonne retirée", remove_y: "rangée retirée", removed: "retiré",
  requested_by: "demandé par", rng_counter: "compteur", rolled: "lancé", round: "manche", rule: "règle",
  rules_version: "version des règles", sale: "vente", scores: "scores", seat: "place", seat_count: "nombre de places",
  seats: "places", second: "deuxième", secret: "secret", sector: "secteur", sectors: "secteurs", seed: "graine",
  shares: "parts", ship: "navire", single: "seule", sizes: "tailles", slots: "cases", sold: "vendu", source: "source",
  sources: "sources", space: "case", specials_aside: "spéciales de côté", specials_pile: "pile des spéciales",
  stamp: "tampon", started_at: "commencé à", step: "étape", steps: "étapes", sums: "sommes", sunken: "englouti",
  take: "prend", taken: "pris", target: "cible", tavern: "taverne", tavern_x: "colonne de la taverne",
  tavern_y: "rangée de la taverne", third: "troisième", tile: "tuile", to: "vers", to_seat: "vers la place", tom: "Tom",
  treasury: "trésor", turn: "tour", until: "jusqu'au", used_seconds: "temps pris (s)", vacation: "vacances",
  visible: "visible", waiting: "en attente", wanted: "voulu", warehouses: "entrepôts",
  warehouses_returned: "entrepôts rendus", water_aside: "eau de côté", water_pile: "pile d'eau", winner: "gagnant",
  winners: "gagnants", x: "colonne", y: "rangée",
};

function fieldName(key) {
  return language() === "fr" ? (FIELDS_FR[key] ?? key.replace(/_/g, " ")) : key.replace(/_/g, " ");
}

// a value as the page's language says it: goods, colours, places, phases (i18n.js's
// dictionary, else board-words.js's words); a card by its name
function valueWords(value, ctx = {}, key = null) {
  if (key === "card" && ctx.cards && ctx.cards[value] && ctx.cards[value].name) return cardName(ctx, value);
  if (language() !== "fr") return list(value);
  if (value === true) return t("yes");
  return Array.isArray(value) ? (value.length ? value.map((v) => g(String(v))).join(" + ") : "rien") : g(String(value));
}

function fieldWords(command, ctx = {}) {
  return Object.entries(command)
    .filter(([key, value]) => key !== "type" && value !== null && value !== false)
    .map(([key, value]) => `${fieldName(key)} ${valueWords(value, ctx, key)}`)
    .join(", ");
}

// a card as a person reads it: its name (Speicherstadt), its kind and effect (Amsterdam)
// a title's name as its box spells it (the API's title ids are lower case)
export function titleName(id) {
  return id ? id.charAt(0).toUpperCase() + id.slice(1) : "";
}

export function cardName(ctx, id) {
  const card = ctx.cards && ctx.cards[id];
  if (!card) return t("card {id}", { id });
  if (card.name) return language() === "fr" ? frenchWords(card.name) : card.name;
  const group = card.group ? ` ${valueWord(card.group.replace(/_/g, " "))}` : "";
  const cost = card.cost && card.cost.length ? `, ${t("costs")} ${card.cost.map(valueWord).join(" + ")}` : "";
  return `${t(card.kind || "card")}${group} ${id}${cost}`;
}

const EN = {
  kontor: {
    ChooseCard: (c, x) => `Take card ${c.card} into your hand`,
    Pass: () => "Pass",
    PlaceCard: (c) => `Place your card at column ${c.x}, row ${c.y}`,
    MoveShip: (c) => `Move a ship to column ${c.x}, row ${c.y}` +
      (c.remove_x !== null && c.remove_x !== undefined ? ` (removing the ship at ${c.remove_x}, ${c.remove_y})` : ""),
    DrawCard: (c) => `Draw a card from the ${c.pile} pile`,
    BuySpecialCard: (c) => (c.buy ? "Buy the special card" : "Do not buy the special card"),
    ChooseGood: (c) => `Choose ${c.good}`,
  },
  speicherstadt: {
    PlaceWorker: (c, x) => `Place a worker above column ${c.column + 1}` +
      (x.view && x.view.offer && x.view.offer[c.column] ? ` (${cardName(x, x.view.offer[c.column].card)})` : ""),
    BuyCard: (c, x) => {
      const offer = x.view && x.view.current_offer;
      return offer ? `Buy ${cardName(x, offer.card)} for ${offer.price} coins` : "Buy the card on offer";
    },
    RefuseCard: (c, x) => {
      const offer = x.view && x.view.current_offer;
      return offer ? `Refuse ${cardName(x, offer.card)}` : "Refuse the card on offer";
    },
    DeliverCube: (c, x) => `Deliver a ${c.good} cube to your contract ${cardName(x, c.contract)}`,
    SellCube: (c) => `Sell a ${c.good} cube to your trader for 1 coin`,
    MarketSell: (c) => `Sell ${c.first} and ${c.second} at the market for 1 coin`,
    MarketConvert: (c) => `Trade ${c.first}, ${c.second} and ${c.third} at the market for ${c.take}`,
    StoreCube: (c) => `Store a ${c.good} cube in your warehouse`,
    KeepCube: (c) => `Keep a ${c.good} cube on your market space`,
    RetrieveCube: (c) => `Take a ${c.good} cube out of your ${c.place}`,
    EndShipping: () => "End shipping",
  },
  amsterdam: {
    ChooseOpeningCard: (c, x) => `Start with ${cardName(x, c.card)}`,
    ChooseOpeningResources: (c) => `Start with 1 ${c.single} and 2 ${c.pair}`,
    PlaceFigure: (c) => `Place the ${c.figure.replace(/_/g, " ")} on ${c.space}`,
    TakeCard: (c, x) => `Take ${cardName(x, c.card)}` + (c.discard ? `, discarding ${cardName(x, c.discard)}` : ""),
    DiscardForTom: (c, x) => `Tom discards ${cardName(x, c.card)}`,
    DeclineCard: () => "Take no card",
    ChooseDice: (c) => `Take the ${c.dice[0]} and ${c.dice[1]} dice` +
      (c.slots && (c.slots[0] !== 0 || c.slots[1] !== 1) ? ` (slots ${c.slots.join(", ")})` : ""),
    ActivateCard: (c, x) => `Activate ${cardName(x, c.card)}` +
      (c.by_florins ? " for 3 florins" : c.free ? " for free" : `, paying ${list(c.payment)}`),
    UseCard: (c, x) => `Use ${cardName(x, c.card)}` + (c.payment && c.payment.length ? `, paying ${list(c.payment)}` : "") +
      (c.target ? `, on ${c.target}` : ""),
    Convert: (c, x) => `Convert with ${cardName(x, c.card)}, paying ${list(c.payment)}`,
    TakeBlock: (c) => `Buy block ${c.block}` + (c.by_florins ? " for 2 florins" : `, paying ${list(c.payment)}`) +
      (c.sale ? `, selling its good for ${c.sale}` : ", keeping its good") +
      (c.bailiff_to ? `, bailiff to ${c.bailiff_to}` : "") + (c.pawn_to ? `, pawn to ${c.pawn_to}` : ""),
    LoadGood: (c) => `Load ${c.good} onto your barge`,
    MoveBarge: (c) => `Move your barge to ${c.to}` + (c.pay ? `, paying ${c.pay}` : ""),
    PickUpDocker: (c) => `Pick up the ${c.colour} docker`,
    DeliverGood: (c) => `Deliver ${c.good}`,
    AdvanceAmstel: (c) => `Advance on the Amstel, paying ${list(c.payment)}`,
    BuyPrestige: (c) => "Buy the market tile" + (fieldWords(c) ? ` (${fieldWords(c)})` : ""),
    ChooseResource: (c) => `Take a ${c.colour} resource`,
    EndTurn: (c) => "End your turn" + (c.keep ? `, keeping ${c.keep}` : "") + (c.foreman_to ? `, foreman to ${c.foreman_to}` : ""),
  },
};

// the same in French (the server's descriptions are English: in French the page says
// the moves with these)
// a value (a good, a colour, a place) in the page's language: i18n.js's dictionary, else,
// in French, board-words.js's words
export function valueWord(word) {
  const said = t(String(word));
  return language() === "fr" && said === String(word) ? frenchWords(word) : said;
}
const g = valueWord;
const FR = {
  kontor: {
    ChooseCard: (c) => `Prendre la carte ${c.card} en main`,
    Pass: () => "Passer",
    PlaceCard: (c) => `Poser votre carte en colonne ${c.x}, rangée ${c.y}`,
    MoveShip: (c) => `Déplacer un navire en colonne ${c.x}, rangée ${c.y}` +
      (c.remove_x !== null && c.remove_x !== undefined ? ` (en retirant le navire en ${c.remove_x}, ${c.remove_y})` : ""),
    DrawCard: (c) => `Piocher une carte de la pile ${t(c.pile)}`,
    BuySpecialCard: (c) => (c.buy ? "Acheter la carte spéciale" : "Ne pas acheter la carte spéciale"),
    ChooseGood: (c) => `Choisir ${g(c.good)}`,
  },
  speicherstadt: {
    PlaceWorker: (c, x) => `Placer un ouvrier au-dessus de la colonne ${c.column + 1}` +
      (x.view && x.view.offer && x.view.offer[c.column] ? ` (${cardName(x, x.view.offer[c.column].card)})` : ""),
    BuyCard: (c, x) => {
      const offer = x.view && x.view.current_offer;
      return offer ? `Acheter ${cardName(x, offer.card)} pour ${offer.price} pièce${offer.price === 1 ? "" : "s"}` : "Acheter la carte offerte";
    },
    RefuseCard: (c, x) => {
      const offer = x.view && x.view.current_offer;
      return offer ? `Refuser ${cardName(x, offer.card)}` : "Refuser la carte offerte";
    },
    DeliverCube: (c, x) => `Livrer un cube ${g(c.good)} à votre contrat ${cardName(x, c.contract)}`,
    SellCube: (c) => `Vendre un cube ${g(c.good)} à votre négociant pour 1 pièce`,
    MarketSell: (c) => `Vendre ${g(c.first)} et ${g(c.second)} au marché pour 1 pièce`,
    MarketConvert: (c) => `Échanger ${g(c.first)}, ${g(c.second)} et ${g(c.third)} au marché contre ${g(c.take)}`,
    StoreCube: (c) => `Ranger un cube ${g(c.good)} dans votre entrepôt`,
    KeepCube: (c) => `Garder un cube ${g(c.good)} sur votre case de marché`,
    RetrieveCube: (c) => `Reprendre un cube ${g(c.good)} de votre ${t(c.place)}`,
    EndShipping: () => "Terminer l'expédition",
  },
  amsterdam: {
    ChooseOpeningCard: (c, x) => `Commencer avec ${cardName(x, c.card)}`,
    ChooseOpeningResources: (c) => `Commencer avec 1 ${g(c.single)} et 2 ${g(c.pair)}`,
    PlaceFigure: (c) => `Placer ${t(c.figure.replace(/_/g, " "))} sur ${g(c.space)}`,
    TakeCard: (c, x) => `Prendre ${cardName(x, c.card)}` + (c.discard ? `, en défaussant ${cardName(x, c.discard)}` : ""),
    DiscardForTom: (c, x) => `Tom défausse ${cardName(x, c.card)}`,
    DeclineCard: () => "Ne prendre aucune carte",
    ChooseDice: (c) => `Prendre les dés ${g(c.dice[0])} et ${g(c.dice[1])}` +
      (c.slots && (c.slots[0] !== 0 || c.slots[1] !== 1) ? ` (cases ${c.slots.join(", ")})` : ""),
    ActivateCard: (c, x) => `Activer ${cardName(x, c.card)}` +
      (c.by_florins ? " pour 3 florins" : c.free ? " gratuitement" : `, en payant ${frList(c.payment)}`),
    UseCard: (c, x) => `Utiliser ${cardName(x, c.card)}` + (c.payment && c.payment.length ? `, en payant ${frList(c.payment)}` : "") +
      (c.target ? `, sur ${g(c.target)}` : ""),
    Convert: (c, x) => `Convertir avec ${cardName(x, c.card)}, en payant ${frList(c.payment)}`,
    TakeBlock: (c) => `Acheter le pâté ${g(c.block)}` + (c.by_florins ? " pour 2 florins" : `, en payant ${frList(c.payment)}`) +
      (c.sale ? `, en vendant sa marchandise pour ${g(c.sale)}` : ", en gardant sa marchandise") +
      (c.bailiff_to ? `, huissier vers ${g(c.bailiff_to)}` : "") + (c.pawn_to ? `, pion vers ${g(c.pawn_to)}` : ""),
    LoadGood: (c) => `Charger ${g(c.good)} sur votre péniche`,
    MoveBarge: (c) => `Déplacer votre péniche vers ${g(c.to)}` + (c.pay ? `, en payant ${g(c.pay)}` : ""),
    PickUpDocker: (c) => `Prendre le docker ${g(c.colour)}`,
    DeliverGood: (c) => `Livrer ${g(c.good)}`,
    AdvanceAmstel: (c) => `Avancer sur l'Amstel, en payant ${frList(c.payment)}`,
    BuyPrestige: () => "Acheter la tuile de marché",
    ChooseResource: (c) => `Prendre une ressource ${g(c.colour)}`,
    EndTurn: (c) => "Terminer votre tour" + (c.keep ? `, en gardant ${g(c.keep)}` : "") + (c.foreman_to ? `, contremaître vers ${g(c.foreman_to)}` : ""),
  },
};

function frList(value) {
  return Array.isArray(value) ? (value.length ? value.map((v) => g(String(v))).join(" + ") : "rien") : g(String(value));
}

export function describe(command, ctx = {}) {
  const french = language() === "fr";
  const template = ((french ? FR : EN)[ctx.title] || {})[command.type] || (EN[ctx.title] || {})[command.type];
  if (template) {
    try { return template(command, ctx); } catch { /* a field this template did not expect */ }
  }
  const fields = fieldWords(command, ctx);
  const kind = french ? t(humanize(command.type)) : humanize(command.type);
  return fields ? `${kind}: ${fields}` : kind;
}

// what the log does not say: the seat (named first), and the bookkeeping a player never reads
const UNSAID = new Set(["seat", "rng_counter", "seed", "rules_version", "secret", "stamp"]);

// an event of the log in words: its seat by name, its type, its fields (short)
export function describeEvent(event, names, ctx = {}) {
  const type = event.type.includes(".") ? event.type.split(".").pop() : event.type;
  const who = event.seat !== null && event.seat !== undefined ? `${names(event.seat)}${language() === "fr" ? " : " : ": "}` : "";
  const data = event.data && typeof event.data === "object" ? Object.entries(event.data)
    .filter(([key, value]) => !UNSAID.has(key) && value !== null && value !== false && typeof value !== "object")
    .slice(0, 3).map(([key, value]) => `${fieldName(key)} ${valueWords(value, ctx, key)}`).join(", ") : "";
  return `${who}${t(humanize(type))}${data ? ` (${data})` : ""}`;
}
