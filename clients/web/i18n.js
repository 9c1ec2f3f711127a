// English and French: chosen from the browser, switched from the header, kept in this browser.
const KEY = "entrepot.lang";
const FR = {
  "Entrepot": "Entrepot",
  "Your games": "Vos parties",
  "New player": "Nouveau joueur",
  "Your name": "Votre nom",
  "Create my account": "Créer mon compte",
  "I already have a token": "J'ai déjà un jeton",
  "I have an account": "J'ai un compte",
  "Email": "Adresse",
  "Password": "Mot de passe",
  "Token": "Jeton",
  "Sign in": "Se connecter",
  "Sign out": "Se déconnecter",
  "Board": "Plateau",
  "Your cards and choices": "Vos cartes et vos choix",
  "Every legal move, in words": "Tous les coups permis, en mots",
  "Messages": "Messages",
  "Send": "Envoyer",
  "History": "Historique",
  "Now": "Maintenant",
  "your turn": "à vous",
  "(you)": "(vous)",
  "waiting for players": "en attente de joueurs",
  "Waiting for": "On attend",
  "Finished.": "Terminée.",
  "won": "a gagné",
  "Scores": "Scores",
  "No move for you now.": "Aucun coup pour vous maintenant.",
  "You are watching this game.": "Vous regardez cette partie.",
  "Which one?": "Lequel ?",
  "Cancel": "Annuler",
  "Resign": "Abandonner",
  "Abort the game": "Annuler la partie",
  "Legend and rules": "Légende et règles",
  "Language": "Langue",
  "Move log": "Journal des coups",
  "You are looking at the past: no move can be played. \"Now\" returns.":
    "Vous regardez le passé : aucun coup ne peut être joué. « Maintenant » y revient.",
  "left": "restant",
  "deadline": "échéance",
  "Download the audit record": "Télécharger le registre d'audit",
  "Open seats": "Places libres",
  "Games to watch": "Parties à regarder",
  "New game": "Nouvelle partie",
  "Create the game": "Créer la partie",
  "Title": "Jeu",
  "Seats": "Places",
  "Settings": "Réglages",
};
const DICTIONARIES = { en: {}, fr: FR };

export function language() {
  const chosen = localStorage.getItem(KEY);
  if (chosen && DICTIONARIES[chosen]) return chosen;
  return (navigator.language || "en").toLowerCase().startsWith("fr") ? "fr" : "en";
}

export function setLanguage(lang) {
  localStorage.setItem(KEY, lang);
  document.documentElement.lang = lang;
}

// `t("Seat {n}", { n: 2 })`: the words in the chosen language, with the values put in
export function t(text, values = null) {
  const words = DICTIONARIES[language()][text] ?? text;
  return values ? words.replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all)) : words;
}
