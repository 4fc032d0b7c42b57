/** What other features may use of designs (docs/architecture.md, "Walls"): verbs on the cards they own. */
export { createCardsForTeamOrder, deleteCardsOfUser } from './cards.service';
