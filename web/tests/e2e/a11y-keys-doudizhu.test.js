// Dou Dizhu and five-player Dou Dizhu (斗地主, 五人斗地主), the longest games, each played against computers with the keyboard alone:
// axe during play and at the end, Tab reaching every control, the table's dialogs, the
// replay, then the profile with those games in its history (see a11y.js). The games are
// split between two files so that they run side by side.

import { setup } from './harness.js';
import { keyboardGames, DOUDIZHU } from './a11y.js';

const env = setup();

keyboardGames(env, 'Dou Dizhu and five-player Dou Dizhu', (list) => list.filter((g) => DOUDIZHU.includes(g.id)));
