// "How to play" for every game, in both languages: a rules card of a few sections (how a
// game goes, what beats what, scoring), taken from the original rules each game follows
// (docs/rules/). The dialog scrolls inside itself, on a phone as on a desktop, and offers
// the guided first game again. Which games have rules is read from here, never listed.

import { h } from './dom.js';
import { t, lang } from './i18n.js';
import { guideAgain } from './guide.js';

// Each game: a title, `goal` (one line: how the game is won, which the guide also says)
// and sections of [heading, lines].
const zh = {
  doudizhu: {
    title: '斗地主：怎么玩',
    goal: '地主一人对两个农民：谁先出完手里的牌，谁那一方就赢。',
    sections: [
      ['一局怎么打', [
        '三人，一副 54 张牌（含大小王），每人 17 张，留 3 张底牌。',
        '叫分：轮流每人叫一次，1、2、3 分或不叫，要比前面叫得高；叫 3 分立即结束。叫得最高的人当地主，叫的分就是底分。都不叫就重新发牌。',
        '底牌亮给大家看，归地主（20 张），地主先出。',
        '轮到你时，出一手同牌型、同张数、更大的牌，或者不出。另外两家都不出，最后出牌的人重新出任意牌型；领出的人不能不出。',
      ]],
      ['牌型', [
        '大小：3 < 4 < … < K < A < 2 < 小王 < 大王，不分花色。',
        '单张、对子、三张；三带一、三带一对。',
        '顺子：5 张或以上连续的单牌；连对：3 对或以上连续的对子；三顺：2 个或以上连续的三张（3 到 A，2 和王不能连）。',
        '飞机带翅膀：三顺加同样数目的单牌或对子（不能是三顺自己的点数，不能带两张王）。',
        '四带二：四张加两张单牌或两对。',
        '炸弹：四张同点；火箭：大王加小王。',
      ]],
      ['什么大过什么', [
        '火箭最大。炸弹大过任何不是炸弹的牌，大炸弹大过小炸弹。',
        '其余必须同牌型、同张数才能比，比主体的点数（三张、四张、顺子的牌），带的牌不比。',
      ]],
      ['计分', [
        '地主赢：地主得 2 × 底分 × 倍数，两个农民各输 底分 × 倍数；地主输则反过来。',
        '每个压牌的炸弹或火箭 ×2（领出的不算）；春天（农民一张没出）×2；反春（地主只出了第一手）×2。',
        '例：叫 2 分，一个压牌的炸弹，地主赢：地主 +8，农民各 −4。',
      ]],
    ],
  },
  doudizhu5: {
    title: '五人斗地主（如东三打二）：怎么玩',
    goal: '正地主和副地主一队，另外三人一队：先出完牌的人那一方赢。',
    sections: [
      ['发牌和明牌', [
        '五人，三副牌共 162 张（每张牌都有三张），每人 31 张，7 张底牌。',
        '发牌后翻开一张明牌：大家都看到这张牌和谁拿着它。',
      ]],
      ['抢地主（约 10 秒，大家同时抢）', [
        '用两张或三张完全相同（点数、花色都相同）的大王、小王或与明牌同点数的牌来抢：点一次亮一对，有三张可以再点一次亮三张。',
        '每抢一次，基本倍数加 1（没人抢为 1）。',
        '亮出的牌最大的人当正地主：三张大过对子，再比 大王 > 小王 > ♠ > ♥ > ♣ > ♦。没人抢时，拿明牌的人当地主。',
        '正地主拿走底牌（38 张），底牌只有他自己看得到。',
        '不打自胜：拿了底牌，正地主没有两张相同的牌可叫副地主、有 10 张以上的炸弹、或一个炸弹都没有，就直接赢四家。',
      ]],
      ['叫副地主（10 秒）', [
        '明独打：一打四，倍数 ×2。',
        '叫朋友：地主手里正好有两张的最小的牌被标出（如“找 6♦”），拿第三张的人就是副地主，这张牌打出来才公开。',
        '暗独打：手里有三张完全相同的牌时可选，别人看来和叫朋友一样。',
      ]],
      ['出牌和牌型', [
        '地主先出，轮流出同牌型、同张数、更大的牌，或者不出。',
        '单张；对子（两张小王、两张大王也算）；三张；三带二；顺子 5 张以上；连对 3 对以上；三顺 2 组以上（单出 AAA222 不行）。',
        '飞机带翅膀：三顺加同样数目的连对，如 555666+QQKK。',
        'A 和 2 可以放在下端：A2345 < 23456 < … < 10JQKA，A 封顶（不能 JQKA2）；王不能进顺子。',
        '大小：3 < … < K < A < 2 < 小王 < 大王。',
      ]],
      ['炸弹', [
        '四张或更多同点的牌（最多 12 张）：张数多的大，张数相同比点数。炸弹大过一切不是炸弹的牌。',
        '天王炸：三个小王、三个大王，或任意 4–6 张王；大过所有四张的炸弹，小过所有五张的：2222 < 天王炸 < 33333。最大的是 12 个 2。',
      ]],
      ['计分', [
        '一家的分 U = 基本倍数 × 底分（明独再 ×2）。',
        '叫朋友：正地主 ±2U，副地主 ±U，另外三家各 ∓U。',
        '独打（明独、暗独）和不打自胜：正地主 ±4U，四家各 ∓U。',
      ]],
    ],
  },
  bigtwo: {
    title: '锄大地：怎么玩',
    goal: '最先出完 13 张牌的人赢；其他人按手里剩下的牌付分。',
    sections: [
      ['一局怎么打', [
        '四人，一副 52 张牌（不要王），每人 13 张。',
        '第一局拿 3♦ 的人先出，第一手必须带 3♦；以后每局由上一局的赢家先出。',
        '轮流出牌：出同样张数、更大的牌，或者不出（不出后这一轮还能再出）。其他三家都不出，最后出牌的人重新出任意牌；领出的人不能不出。',
      ]],
      ['牌的大小', [
        '点数：3 < 4 < … < K < A < 2。花色：♦ < ♣ < ♥ < ♠。',
        '单张先比点数，再比花色：3♦ 最小，2♠ 最大。',
      ]],
      ['牌型', [
        '单张、一对、三个：比其中最大的一张。',
        '五张牌：杂顺 < 同花五 < 三个带一对 < 四个带单张 < 同花顺，大的一类压小的一类。',
        '顺子共十种：A2345 最小，23456、34567…… 10JQKA 最大；JQKA2、QKA23、KA234 不算顺子。',
        '同类五张：顺子比最大的牌，同花比最大一张，三个带一对比三个，四个带单张比四个。',
        '只有张数相同的牌能比；四张或六张以上不能出。',
      ]],
      ['计分', [
        '剩 n 张的牌分：少于 8 张为 n，8–9 张为 2n，10–12 张为 3n，13 张为 4n；剩 8 张以上且有 2♠ 再翻倍。',
        '你的得分 = 其他三家的牌分各减你的牌分，再相加；四家合计为 0。',
        '例：剩 5、8、0、12 张，得分 37、−7、57、−87。',
      ]],
    ],
  },
  tenhalf: {
    title: '十点半：这种玩法怎么玩',
    goal: '每次爆牌或摊牌输了都记罚分：一局结束时罚分最少的人胜。',
    sections: [
      ['不是“坐庄比大小”', [
        '没有人和庄家对赌，各自为战，输了记罚分；一局结束时罚分最少者胜。',
        '点数：A 算 1，2–10 按牌面，J、Q、K 和大小王各算半点。尽量接近十点半，但不能超过。',
      ]],
      ['一轮怎么打', [
        '每轮每人先发一张扣着的底牌，只有自己看得到；从庄家下家开始轮流要牌，庄家最后。',
        '7 点及以下必须要牌；7 点半到 10 点可以要牌，也可以停牌。',
        '正好十点半，或五张牌不超过十点半（五龙），立即胜出，离开本轮，奖池加 2 分。',
        '超过十点半就是爆牌：亮牌，立即罚 2 分，再拿一张新底牌接着要。',
      ]],
      ['摊牌和罚分', [
        '停牌的人里点数最小的输（点数相同牌少的输，再比最大的一张牌），吃下奖池：罚 2 分，本轮每有一人胜出再加 2 分。',
        '一副牌一直发下去，不够再发一轮时本局结束；每局庄家顺延一位。',
      ]],
    ],
  },
  gomoku: {
    title: '五子棋：怎么玩',
    goal: '先在横、竖或斜线上连成五子的一方胜；棋盘下满无人连五为和棋。',
    sections: [
      ['一局怎么下', [
        '两人轮流在空点上放一颗棋子，黑先。先连成五子（横、竖、斜）的一方胜；棋盘下满无人连五是和棋。',
        '每局交换颜色：上一局执白的人下一局执黑。认输或超时判负。',
      ]],
      ['规则（开桌时选）', [
        '自由五子棋：五子或更多连成一线都算赢。',
        '标准：恰好五子才赢，六子以上（长连）不算。',
        '连珠：黑棋只能恰好五子赢，且不能下禁手——长连、双四、双三（可以“显示禁手”）；白棋没有禁手，长连也赢。',
      ]],
      ['悔棋', [
        '棋盘上有你的子就可以请求：对方落子前，收回你的一手；轮到你时，收回你的一手和对方的应手。',
        '需对方同意时，每局最多批准 3 次；被拒绝不计次数，但下一手之前再请求要用掉一次。电脑对手总是同意。开桌时也可以选“总是允许”或“不允许”。',
      ]],
    ],
  },
};

const en = {
  doudizhu: {
    title: 'Dou Dizhu: how to play',
    goal: 'The landlord plays alone against two farmers: the side of whoever plays out all their cards first wins.',
    sections: [
      ['How a game goes', [
        'Three players, one 54-card deck with both jokers: 17 cards each, 3 face down in the kitty.',
        'Bidding: in turn, each bids once, 1, 2 or 3, or passes; a bid must beat the ones before, and 3 ends the bidding. The highest bidder is the landlord and the bid is the base score. If all pass, the cards are dealt again.',
        'The kitty is shown to all and goes to the landlord (20 cards), who leads.',
        'On your turn, play a higher combination of the same kind and number of cards, or pass. When the other two pass, the last to play leads anything; a leader may not pass.',
      ]],
      ['Combinations', [
        'Order: 3 < 4 < … < K < A < 2 < small joker < big joker; suits never matter.',
        'Single, pair, trio; trio with a single, trio with a pair.',
        'Straight: 5 or more singles in a row; pair chain: 3 or more pairs in a row; trio chain: 2 or more trios in a row (3 to A: no 2s or jokers).',
        'Plane: a trio chain with as many singles or pairs (not of its own ranks, not both jokers).',
        'Four with two: four of a kind with two singles or two pairs.',
        'Bomb: four of a kind. Rocket: both jokers.',
      ]],
      ['What beats what', [
        'The rocket beats everything. A bomb beats anything that is not a bomb, and lower bombs.',
        'Otherwise only the same kind with the same number of cards, higher in its main part (the trio, the four, the straight); the extra cards do not count.',
      ]],
      ['Scoring', [
        'Landlord wins: the landlord gets 2 × base × multiplier, each farmer loses base × multiplier; the other way round when the landlord loses.',
        '×2 for each bomb or rocket played to beat a play (not one that leads); ×2 for a spring (no farmer played a card); ×2 for an anti-spring (the landlord played only the first lead).',
        'Example: bid 2, one bomb that beat a play, the landlord wins: landlord +8, each farmer −4.',
      ]],
    ],
  },
  doudizhu5: {
    title: 'Five-player Dou Dizhu: how to play',
    goal: 'The landlord and the secret partner against the other three: the side of whoever goes out first wins.',
    sections: [
      ['Deal and the face-up card', [
        'Five players, three decks (162 cards: every card three times), 31 cards each, 7 in the kitty.',
        'After the deal one card is turned face up (明牌): everyone sees it and who holds it.',
      ]],
      ['The grab (about 10 s, all at once)', [
        'Grab with two or three identical cards (same rank and suit): jokers, or cards of the face-up card\'s rank. One click shows a pair; with three copies click again to show the triple.',
        'Every grab adds 1 to the multiplier (1 if nobody grabs).',
        'The strongest set shown makes its owner the landlord: a triple beats any pair, then big joker > small joker > ♠ > ♥ > ♣ > ♦. With no grabs the face-up card\'s holder is landlord.',
        'The landlord takes the kitty (38 cards); only the landlord sees it.',
        'Instant win: a landlord with no card held twice to call a partner with, a bomb of 10 or more cards, or no bomb at all beats all four at once.',
      ]],
      ['The landlord declares (10 s)', [
        'Open solo (明独): one against four, multiplier ×2.',
        'Call a partner: the lowest card the landlord holds exactly two of is marked ("找 6♦"); the holder of the third copy is the partner, revealed when it is played.',
        'Hidden solo (暗独): with three identical cards; to the others it looks like a partner call.',
      ]],
      ['Play and combinations', [
        'The landlord leads; beat the last play with the same kind and number of cards, higher, or pass.',
        'Single; pair (also two small or two big jokers); trio; trio with a pair; straight of 5+; pair chain of 3+ pairs; trio chain of 2+ trios (AAA222 alone is not allowed).',
        'Plane: a trio chain with as many consecutive pairs, e.g. 555666+QQKK.',
        'A and 2 may go low: A2345 < 23456 < … < 10JQKA; A ends every sequence (no JQKA2); no jokers in sequences.',
        'Order: 3 < … < K < A < 2 < small joker < big joker.',
      ]],
      ['Bombs', [
        'Four or more of a rank (up to 12): more cards win, then the higher rank. Bombs beat every other play.',
        'Joker bombs: three small, three big, or any 4–6 jokers; above every four-card bomb, below every five-card one: 2222 < joker bomb < 33333. The biggest play is twelve 2s.',
      ]],
      ['Scoring', [
        'One player\'s stake U = multiplier × base score (×2 more for an open solo).',
        'With a partner: landlord ±2U, partner ±U, each of the three others ∓U.',
        'Solo (open or hidden) and instant wins: landlord ±4U, each of the four ∓U.',
      ]],
    ],
  },
  bigtwo: {
    title: 'Big Two: how to play',
    goal: 'The first to play out all 13 cards wins; the others pay for the cards they are left holding.',
    sections: [
      ['How a deal goes', [
        'Four players, one 52-card deck (no jokers), 13 cards each.',
        'In the first deal the holder of 3♦ leads, and that play must include 3♦; later deals are led by the last deal\'s winner.',
        'In turn: play the same number of cards, higher, or pass (you may still play later in the round). When the other three pass, the last to play leads anything; a leader may not pass.',
      ]],
      ['Card order', [
        'Ranks: 3 < 4 < … < K < A < 2. Suits: ♦ < ♣ < ♥ < ♠.',
        'A single compares by rank, then suit: 3♦ is the lowest card, 2♠ the highest.',
      ]],
      ['Plays', [
        'Single, pair, triple: decided by the highest card.',
        'Five cards: straight < flush < full house < four of a kind + one < straight flush; a higher kind beats any lower kind.',
        'Ten straights: A2345 (lowest), 23456, 34567 … 10JQKA (highest); JQKA2, QKA23 and KA234 are not straights.',
        'Same kind: a straight by its top card, a flush by its highest card, a full house by its triple, four + one by its four.',
        'Only plays with the same number of cards compare; four cards, or six or more, are never a play.',
      ]],
      ['Scoring', [
        'Card score for n cards left: n below 8, 2n for 8–9, 3n for 10–12, 4n for 13; doubled again with 8 or more cards including 2♠.',
        'Your result: the sum, over the other three, of their card score minus yours; results add up to 0.',
        'Example: 5, 8, 0 and 12 cards left give 37, −7, 57 and −87.',
      ]],
    ],
  },
  tenhalf: {
    title: 'Ten and a half: how this variant plays',
    goal: 'Busts and lost showdowns cost penalty points: the fewest penalty points win the game.',
    sections: [
      ['Not the banker game', [
        'Nobody bets against the dealer. Everyone plays for themselves, for penalty points, and the fewest penalty points win the game.',
        'Cards: A = 1, 2–10 as marked, J, Q, K and both jokers = ½. Get as close to 10½ as you can without going over.',
      ]],
      ['A round', [
        'Everyone gets one face-down base card that only they see; play goes round from the dealer\'s left, the dealer last.',
        'At 7 or less you must hit; from 7½ to 10 you may hit or stand.',
        'Exactly 10½, or five cards without going over (five dragons), wins at once: you leave the round and the pot grows by 2.',
        'Over 10½ is a bust: your cards are shown, you take 2 penalty points at once, get a new base card and play on.',
      ]],
      ['Showdown and penalties', [
        'Of those who stood, the lowest total loses (on a tie fewer cards lose, then the lower best card) and takes the pot: 2 penalty points, plus 2 for each outright win that round.',
        'Rounds are dealt from one deck until it runs out; the dealer moves on one seat each game.',
      ]],
    ],
  },
  gomoku: {
    title: 'Gomoku: how to play',
    goal: 'The first to make an unbroken line of five — across, down or diagonally — wins; a full board with no five is a draw.',
    sections: [
      ['How a game goes', [
        'Two players take turns placing a stone on an empty point; black moves first. The first unbroken line of five (across, down or diagonally) wins; a full board with no five is a draw.',
        'Colours swap every game: who played white plays black next. Resigning or running out of time loses.',
      ]],
      ['Rules (chosen for the table)', [
        'Freestyle: five or more in a row wins.',
        'Standard: exactly five wins; six or more (an overline) does not.',
        'Renju: black wins only with exactly five and may not play overlines, double-fours or double-threes (tick "Show forbidden points"); white has no restrictions and wins with six too.',
      ]],
      ['Undo', [
        'You may ask whenever a stone of yours is on the board: before the opponent replies it takes back your stone; on your turn, your stone and the reply.',
        'When the opponent decides, at most 3 undos are granted per game; a refusal costs nothing, but asking again before the next stone uses one. Computers always accept. A table may also allow undo always, or never.',
      ]],
    ],
  },
};

const DICTS = { zh, en };

/** A game's rules card in the current language, or undefined for a game without one. */
export function rulesOf(game) {
  return DICTS[lang()][game];
}

/** The rules in sections, in a dialog that Escape or Close shuts and that scrolls inside
 * itself; its foot offers the guided first game of this game again. `extra`: sections a
 * table's options add ([heading, lines]), after the game's own. */
export function showRules(game, extra = []) {
  const r = rulesOf(game);
  if (!r) return;
  const dlg = h(
    'dialog',
    { class: 'dialog rules', 'aria-label': r.title },
    h(
      'form',
      { method: 'dialog' },
      h('h2', {}, r.title),
      h(
        'div',
        { class: 'rulesbody', tabindex: '0', role: 'region', 'aria-label': r.title },
        h('p', { class: 'goal' }, r.goal),
        [...r.sections, ...extra].map(([head, lines]) => h('section', {}, h('h3', {}, head), h('ul', {}, lines.map((line) => h('li', {}, line))))),
      ),
      h(
        'div',
        { class: 'dlgbtns' },
        h('button', { value: 'guide', class: 'ghost', dataset: { act: 'guide' } }, t('guide.again')),
        h('button', { value: 'close', class: 'primary', autofocus: true }, t('login.close')),
      ),
    ),
  );
  dlg.addEventListener('close', () => {
    dlg.remove();
    if (dlg.returnValue === 'guide') guideAgain(game);
  });
  document.body.append(dlg);
  dlg.showModal();
}
