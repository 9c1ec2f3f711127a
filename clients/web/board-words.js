// The server draws each board (GET /v1/games/{id}/board.svg) and names its values (goods,
// colours, places, phases) in English, the same as the mails and the CLI. In French the page
// says them in French: the board's labels and tooltips, and the values the move log and the
// moves without a template show. Sentences the board writes are matched whole first
// (PATTERNS); the rest is said word by word (WORDS), which is how a label such as
// "#3 dock of red with tea, wine" reads "#3 quai de rouge avec thé, vin".

// whole labels: their own word order in French
const PATTERNS = [
  [/^(\w+) · round (\d+) of (\d+) · (.+)$/, (m, w) => `${m[1]} · manche ${m[2]} sur ${m[3]} · ${w(m[4])}`],
  [/^(\w+) · round (\d+) · (.+)$/, (m, w) => `${m[1]} · manche ${m[2]} · ${w(m[3])}`],
  [/^a card may go at \((-?\d+), (-?\d+)\)$/, (m) => `une carte peut aller en (${m[1]}, ${m[2]})`],
  [/^(\d+) cards in (\w+)'s hand$/, (m, w) => `${m[1]} cartes dans la main de ${w(m[2])}`],
  [/^(\d+) (\w+) in the bag$/, (m, w) => `${m[1]} ${w(m[2])} dans le sac`],
  [/^(\d+) (\w+) in reserve$/, (m, w) => `${m[1]} ${w(m[2])} en réserve`],
  [/^bridge after space (\d+): (\d+) points$/, (m) => `pont après la case ${m[1]} : ${m[2]} points`],
  [/^(\w+?)(\d) in (\w+), cost (\d+), (.+)$/, (m, w) => `${w(m[1])}${m[2]} à ${m[3]}, coût ${m[4]}, ${w(m[5])}`],
  [/^(.+), owned by seat (\d+)$/, (m, w) => `${w(m[1])}, à la place ${m[2]}`],
  [/^sector scored by (\w+)$/, (m, w) => `secteur marqué par ${w(m[1])}`],
  [/^(black|brown|grey|orange|pink|violet)(\d)$/, (m, w) => `${w(m[1])}${m[2]}`],
  [/^P:(\w+)$/, (m, w) => `ponton ${w(m[1].replace(/_/g, " "))}`],
  [/^([A-E])-([a-z]+(?:-[a-z]+)*)(-\d+)?$/, (m, w, cards) => (cards && cards[m[0]] && cards[m[0]].name
    ? `${m[1]} · ${w(cards[m[0]].name)}${m[3] ? ` ${m[3].slice(1)}` : ""}` : m[0])],
];

// words and phrases (longest first when said), English → French
export const WORDS = {
  // Speicherstadt's cards
  "Coffee Roaster": "Torréfacteur", "Carpet Trader": "Marchand de tapis", "Spice Trader": "Marchand d'épices",
  "Tea Taster": "Goûteur de thé", "Vulcanizer": "Vulcanisateur", "Counting Office": "Comptoir", "Warehouse": "Entrepôt",
  "Fireman": "Pompier", "Contract": "Contrat", "4th Fire": "4e incendie", "Fire": "Incendie", "Bank": "Banque",
  "Boatmen Church": "Église des bateliers", "Chamber of Commerce": "Chambre de commerce", "Ship": "Navire",
  "Port": "Port",
  // the boards' words
  "Kontor board": "plateau de Kontor", "Speicherstadt board": "plateau de Speicherstadt", "Amsterdam board": "plateau d'Amsterdam",
  "your hand": "votre main", "water pile": "pile d'eau", "light blue": "bleu clair", "light green": "vert clair",
  "black market": "marché noir", "docker building": "bâtiment des dockers", "market tile": "tuile de marché",
  "craftsman pile": "pile des artisans", "building pile": "pile des bâtiments", "plan pile": "pile des plans",
  "opening card": "carte de départ", "opening resources": "ressources de départ",
  "anchor": "ancre", "bag": "sac", "barge": "péniche", "bridge": "pont", "cards": "cartes", "card": "carte",
  "coins": "pièces", "column": "colonne", "cost": "coût", "depot": "dépôt", "dock": "quai", "empty": "vide",
  "hand": "main", "harbour": "port", "money": "argent", "offer": "offre", "open": "libre", "penalties": "pénalités",
  "points": "points", "pontoon": "ponton", "reserve": "réserve", "round": "manche", "seat": "place", "space": "case",
  "stacks": "piles", "stack": "pile", "start": "départ", "tavern": "taverne", "treasury": "trésor", "warehouse": "entrepôt",
  "water": "eau", "waterway": "voie d'eau", "worker": "ouvrier", "ship": "navire", "florin": "florin", "florins": "florins",
  "resource": "ressource", "resources": "ressources", "computer": "ordinateur", "easy": "facile", "normal": "normal",
  "strong": "fort", "of": "de", "with": "avec", "in": "dans", "at": "en", "on": "sur", "by": "par", "and": "et",
  "the": "le", "where": "où", "wait": "attendent", "dockers": "dockers", "sector": "secteur", "scored": "marqué",
  "finished": "finie", "pile": "pile", "tile": "tuile", "building": "bâtiment", "craftsman": "artisan", "plan": "plan",
  "market": "marché", "bought": "acheté", "sold": "vendu", "owned": "possédé",
  // phases and steps
  "choose": "choix", "place": "pose", "demand": "demande", "purchase": "achat", "supply": "réserve", "actions": "actions",
  "dice": "dés", "shipping": "expédition", "draw": "pioche", "income": "revenu", "end": "fin",
  // colours
  "black": "noir", "red": "rouge", "brown": "marron", "grey": "gris", "orange": "orange", "pink": "rose",
  "violet": "violet", "white": "blanc", "yellow": "jaune", "blue": "bleu", "green": "vert", "purple": "violet",
  // goods
  "tea": "thé", "wine": "vin", "spice": "épices", "cloth": "drap", "salt": "sel", "grain": "grain", "coffee": "café",
  "carpet": "tapis", "rubber": "caoutchouc", "saffron": "safran", "beer": "bière", "cheese": "fromage",
  "tulip": "tulipes", "tulips": "tulipes", "furniture": "meubles", "crystal": "cristal", "genever": "genièvre",
  "tiles": "carreaux", "lace": "dentelle",
};
const PHRASES = Object.keys(WORDS).sort((a, b) => b.length - a.length);
const WORD = new RegExp(`\\b(${PHRASES.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})\\b`, "g");

// English words and phrases of WORDS said in French, the rest kept as written
export function frenchWords(text, cards = null) {
  const source = String(text);
  for (const [pattern, say] of PATTERNS) {
    const match = source.match(pattern);
    if (match) return say(match, (part) => frenchWords(part, cards), cards);
  }
  return source.replace(/_/g, " ").replace(WORD, (phrase) => WORDS[phrase]);
}

// the board's labels and tooltips, in French (the names the page wrote there are kept)
export function frenchBoard(svg, cards, keep = () => false) {
  for (const node of svg.querySelectorAll("text, title")) {
    const words = node.firstChild;
    if (!words || words.nodeType !== Node.TEXT_NODE || keep(node)) continue;
    words.textContent = frenchWords(words.textContent, cards);
  }
}
