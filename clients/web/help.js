// A legend and short rules per title, one click away under the board. The rules are short
// summaries of the rulebooks mapped in docs/rules/<title>.md.
import { el } from "./pages.js";
import { language, t } from "./i18n.js";

const HELP = {
  kontor: {
    en: {
      rules: ["Two Hanseatic merchants build a harbour of cards on a shared grid.",
        "On your turn take one of the cards offered, then place it next to the harbour: goods, taverns, cranes and ships score or change who controls a dock.",
        "The game ends when the piles are used; the most points win."],
      legend: [["highlighted cell", "a place where the chosen card or ship may go: click it"],
        ["f", "a florin on the card"], ["S", "a ship"], ["C", "a crane"], ["coloured border", "the card's owner"],
        ["dots", "goods on the card (tea, wine, spice)"]],
    },
    fr: {
      rules: ["Deux marchands de la Hanse bâtissent un port de cartes sur une grille commune.",
        "À votre tour, prenez une des cartes proposées puis posez-la contre le port : marchandises, tavernes, grues et navires rapportent des points ou changent le contrôle d'un quai.",
        "La partie s'arrête quand les piles sont épuisées ; le plus de points l'emporte."],
      legend: [["case en surbrillance", "un endroit où la carte ou le navire peut aller : cliquez-la"],
        ["f", "un florin sur la carte"], ["S", "un navire"], ["C", "une grue"], ["bord coloré", "le propriétaire"],
        ["points", "marchandises sur la carte (thé, vin, épices)"]],
    },
  },
  speicherstadt: {
    en: {
      rules: ["Each round, cards are offered in columns. Place your workers one at a time above a column (click it).",
        "Then each column is sold from its lowest worker up: the price is the number of workers still above the card. Buy or refuse the card on offer (the market panel).",
        "Ships bring cubes: deliver them to your contracts, sell them to your traders or the market, or keep them in your warehouse. Fires and firemen, contracts and traders score; the most points win."],
      legend: [["column", "a card on offer with its workers (coloured dots)"], ["small squares", "goods cubes"],
        ["◀", "the seat that acts"], ["card backs", "cards a seat holds"]],
    },
    fr: {
      rules: ["À chaque manche des cartes sont offertes en colonnes. Placez vos ouvriers un par un au-dessus d'une colonne (cliquez-la).",
        "Chaque colonne est ensuite vendue depuis l'ouvrier le plus bas : le prix est le nombre d'ouvriers restant. Achetez ou refusez la carte (le panneau du marché).",
        "Les navires apportent des cubes : livrez-les à vos contrats, vendez-les, ou gardez-les en entrepôt. Le plus de points l'emporte."],
      legend: [["colonne", "une carte offerte et ses ouvriers"], ["petits carrés", "cubes de marchandises"], ["◀", "le joueur qui agit"]],
    },
  },
  amsterdam: {
    en: {
      rules: ["Phase I: take a card from the offer (click it). Phase II: take two dice of different colours (click a die, then the pair).",
        "Phase III: activate and use your cards, buy city blocks (click a block), move your barge in the harbour (click a node), deliver goods, advance on the Amstel.",
        "Districts are scored during the game; the most points at the end win."],
      legend: [["coloured squares", "city blocks by district; a seat colour inside: its owner"], ["Be, Tu, Ch…", "goods: beer, tulips, cheese, furniture, genever, tiles, lace, coffee, crystal"],
        ["blue row", "the Amstel, with each seat's boat"], ["W1, W2… D…", "harbour waterway nodes and depots"]],
    },
    fr: {
      rules: ["Phase I : prenez une carte de l'offre (cliquez-la). Phase II : prenez deux dés de couleurs différentes.",
        "Phase III : activez et utilisez vos cartes, achetez des pâtés de maisons, déplacez votre péniche, livrez, avancez sur l'Amstel.",
        "Les quartiers sont comptés pendant la partie ; le plus de points l'emporte."],
      legend: [["carrés colorés", "pâtés de maisons par quartier"], ["Be, Tu, Ch…", "marchandises"], ["rangée bleue", "l'Amstel"]],
    },
  },
};

export async function helpFor(title) {
  const help = (HELP[title] || {})[language()] || (HELP[title] || {}).en;
  if (!help) return [];
  return [
    el("h3", {}, t("Rules")), el("ul", {}, help.rules.map((line) => el("li", {}, line))),
    el("h3", {}, t("Legend")), el("dl", { class: "legend" }, help.legend.flatMap(([term, words]) => [el("dt", {}, term), el("dd", {}, words)])),
    el("p", {}, `${t("The full rules mapped to the code:")} `, el("code", {}, `docs/rules/${title}.md`)),
  ];
}
