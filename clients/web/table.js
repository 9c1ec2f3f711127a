// The part of the table that is not on the board picture: the cards and cubes the player
// holds, the card on offer at the market, the dice, and tokens for the moves that have no
// place on the board ("End turn"). Each piece stands for the legal commands it can play;
// a piece standing for several opens a short choice in words.
import { cardName, describe, valueWord } from "./words.js";
import { t } from "./i18n.js";

function group(commands, field, test = () => true) {
  const by = new Map();
  for (const command of commands) {
    if (!(field in command) || !test(command)) continue;
    const key = Array.isArray(command[field]) ? command[field].join("+") : String(command[field]);
    if (!by.has(key)) by.set(key, []);
    by.get(key).push(command);
  }
  return by;
}

function take(remaining, used) {
  for (const command of used) remaining.delete(command);
}

const TITLES = {
  speicherstadt(view, commands, ctx) {
    const groups = [];
    const remaining = new Set(commands);
    const offer = view.current_offer;
    const market = commands.filter((c) => c.type === "BuyCard" || c.type === "RefuseCard");
    if (offer && market.length) {
      groups.push({ heading: offer.price === 1 ? t("On offer: {card}, 1 coin", { card: cardName(ctx, offer.card) })
        : t("On offer: {card}, {price} coins", { card: cardName(ctx, offer.card), price: offer.price }), items: market.map((c) => ({
        label: describe(c, ctx), commands: [c], kind: c.type === "BuyCard" ? "card buy" : "card refuse",
      })) });
      take(remaining, market);
    }
    const you = (view.seats || [])[ctx.seat] || {};
    const contracts = group(commands, "contract", (c) => c.type === "DeliverCube");
    if (contracts.size) {
      groups.push({ heading: t("Your contracts"), items: [...contracts].map(([contract, list]) => ({
        label: cardName(ctx, contract), commands: list, kind: "card contract" })) });
      for (const list of contracts.values()) take(remaining, list);
    }
    const cubes = group([...remaining], "good");
    const firsts = group([...remaining], "first");
    for (const [good, list] of firsts) cubes.set(good, [...(cubes.get(good) || []), ...list]);
    if (cubes.size) {
      groups.push({ heading: t("Your cubes (warehouse: {goods})", { goods: (you.warehouse || []).map(valueWord).join(", ") || t("empty") }),
        items: [...cubes].map(([good, list]) => ({ label: t("{good} cube", { good: valueWord(good) }), commands: list, kind: `cube ${good}` })) });
      for (const list of cubes.values()) take(remaining, list);
    }
    return { groups, remaining };
  },
  amsterdam(view, commands, ctx) {
    const groups = [];
    const remaining = new Set(commands);
    const you = (view.seats || [])[ctx.seat] || {};
    const held = new Set([...(you.inactive || []), ...(you.active || []), ...(you.used || [])]);
    const hand = group(commands, "card", (c) => held.has(c.card) || ["ActivateCard", "UseCard", "Convert"].includes(c.type));
    if (hand.size) {
      groups.push({ heading: t("Your cards"), items: [...hand].map(([card, list]) => ({
        label: cardName(ctx, card), commands: list, kind: "card" })) });
      for (const list of hand.values()) take(remaining, list);
    }
    const dice = commands.filter((c) => c.type === "ChooseDice");
    if (dice.length) {
      const colours = [...new Set(dice.flatMap((c) => c.dice))];
      groups.push({ heading: `${t("Dice:")} ${(view.dice || []).map(valueWord).join(", ")}`, items: colours.map((colour) => ({
        label: t("{colour} die", { colour: valueWord(colour) }), commands: dice.filter((c) => c.dice.includes(colour)), kind: `die ${colour}` })) });
      take(remaining, dice);
    }
    const opening = commands.filter((c) => c.type === "ChooseOpeningCard");
    if (opening.length) {
      groups.push({ heading: t("Opening cards"), items: opening.map((c) => ({ label: cardName(ctx, c.card), commands: [c], kind: "card" })) });
      take(remaining, opening);
    }
    for (const [field, heading, kind] of [["colour", "Resources and dockers", "cube"], ["good", "Goods on your barge", "cube"]]) {
      const by = group([...remaining], field);
      if (!by.size) continue;
      groups.push({ heading: t(heading), items: [...by].map(([value, list]) => ({ label: valueWord(value), commands: list, kind: `${kind} ${value}` })) });
      for (const list of by.values()) take(remaining, list);
    }
    return { groups, remaining };
  },
};

// what several moves of a kind say alike: the words their descriptions begin with
// ("End your turn, keeping beer" and "End your turn" make "End your turn…")
function sharedWords(descriptions) {
  const split = descriptions.map((words) => words.split(" "));
  const bare = (word) => (word || "").replace(/[,:;]$/, "");
  const shared = [];
  for (const [index, word] of split[0].entries()) {
    if (!split.every((words) => bare(words[index]) === bare(word))) break;
    shared.push(word);
  }
  return (shared.length ? shared.join(" ") : split[0][0]).replace(/[,:]$/, "");
}

// `boardCovered`: the commands a board element already plays
export function tablePieces(title, view, commands, boardCovered, ctx) {
  const free = commands.filter((c) => !boardCovered.has(c));
  const build = TITLES[title];
  const { groups, remaining } = build ? build(view || {}, free, ctx) : { groups: [], remaining: new Set(free) };
  // what has no place yet: one token per kind of move
  const rest = group([...remaining], "type");
  if (rest.size) {
    groups.push({ heading: t("Actions"), items: [...rest].map(([, list]) => ({
      label: list.length === 1 ? describe(list[0], ctx) : sharedWords(list.map((c) => describe(c, ctx))) + "…",
      commands: list, kind: "token" })) });
  }
  return groups;
}
