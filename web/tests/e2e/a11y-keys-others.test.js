// every game but the two Dou Dizhus (a11y-keys-doudizhu.test.js): Big Two, Ten and a half,
// Gomoku, and any game the hall adds, each played against computers with the keyboard alone:
// axe during play and at the end, Tab reaching every control, the table's dialogs, the
// replay, then the profile with those games in its history (see a11y.js). The games are
// split between two files so that they run side by side.

import { setup } from './harness.js';
import { keyboardGames, DOUDIZHU } from './a11y.js';

const env = setup();

keyboardGames(env, 'Every other game', (list) => list.filter((g) => !DOUDIZHU.includes(g.id)));
