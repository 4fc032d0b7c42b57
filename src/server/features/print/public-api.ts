/** What other features may use of print (docs/architecture.md, "Walls"): the production floor's ZIP export and the design review's gate. */
export { renderPrintFiles, printCheck, renderPrintSheet } from './print.service';
