// The one player of the app: it outlives the pages, so a book keeps playing while the patron browses the
// catalog (the mini player shows it), and comes back to the player page where it was.

import { api } from '../api.js';
import { Player } from './engine.js';

let player = null;

export function sharedPlayer() {
  if (!player) player = new Player((path) => api.get(path));
  return player;
}
