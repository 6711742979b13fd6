// Chinese and English. The language follows the browser on a first visit, can be switched
// at any time, and is remembered. Static text in index.html carries data-i18n keys; code
// calls t(key, vars).

const KEY = 'qipai.lang';

const zh = {
  loading: '正在连接…',
  'nav.lobby': '大厅', 'nav.profile': '我的', 'nav.ranks': '排行榜',
  'ranks.title': '排行榜', 'ranks.games': '游戏', 'ranks.player': '玩家', 'ranks.rating': '等级分', 'ranks.games_played': '对局数',
  'ranks.none': '{game}还没有计等级分的对局。', 'ranks.provisional': '对局还少，这个分数还不准',
  'ranks.how': '只有注册玩家在“计入等级分”的桌上彼此下的对局才算。带 ? 的分数对局还少，还不准：大约十几盘计分局之后才进入排名。',
  'ranks.provisional_head': '暂不排名（对局还少）',
  'conn.online': '', 'conn.offline': '连接中断，正在重连…', 'conn.restarting': '服务器正在重启，马上重连…',
  'conn.crowded': '你这边打开的连接太多了：关掉别的页面，正在重试…',
  'user.guest': '游客', 'user.login': '登录 / 注册', 'user.logout': '退出登录',
  'lobby.title': '选一个游戏，马上开局', 'lobby.quick': '与电脑对局', 'lobby.create': '开桌',
  'lobby.tables': '正在等人的桌子', 'lobby.none': '现在没有等人的公开桌子。开一桌，或者直接与电脑对局。',
  'lobby.mine': '你的牌桌', 'lobby.return': '回到牌桌', 'lobby.playing': '正在进行（可观战）',
  'lobby.seat': '你坐 {n} 号座',
  'lobby.join': '入座', 'lobby.watch': '观战', 'lobby.players': '{n} 人',
  'lobby.host': '桌主 {name}', 'lobby.spectators': '{n} 人观战',
  'status.waiting': '等人', 'status.dealing': '发牌', 'status.playing': '进行中', 'status.stalled': '等待存储', 'status.closed': '已结束',
  'create.title': '开一桌：{game}', 'create.seats': '座位数', 'create.private': '私人桌（凭邀请链接入座）',
  'create.computers': '允许电脑玩家', 'create.rated': '计入等级分（注册用户）',
  'create.spectators': '允许持邀请链接的人观战',
  'create.turn': '每步秒数', 'create.go': '开桌', 'create.cancel': '取消',
  'create.rule': '规则', 'rule.freestyle': '自由五子棋', 'rule.standard': '标准（恰好五子）', 'rule.renju': '连珠（黑棋禁手）',
  'create.undo': '悔棋', 'undo.ask': '需对方同意', 'undo.always': '总是允许', 'undo.never': '不允许',
  'table.four': '四色牌', 'table.fourtitle': '梅花绿色、方块蓝色', 'replay.action': '{name}：{action}', 'replay.timedout': '{name} 超时，系统代为：{action}',
  'table.leave': '离开', 'table.invite': '邀请链接', 'table.copied': '邀请链接已复制',
  'table.seat': '{n} 号座', 'table.empty': '空位', 'table.sit': '坐这里', 'table.addbot': '加电脑',
  'table.lastturn': '{name}的上一手', 'table.you': '你', 'table.bot': '电脑', 'table.away': '离线', 'table.auto': '托管中',
  'table.ready': '准备', 'table.notready': '取消准备', 'table.waiting': '等待其他玩家…', 'table.fill': '{time} 后电脑入座，其他玩家仍可加入',
  'table.spectating': '观战中', 'table.yourturn': '轮到你了', 'table.yourturnoffline': '轮到你了：连接恢复后即可出牌', 'table.turnof': '等待 {name}',
  'table.cardsleft': '剩 {n} 张', 'table.games': '第 {n} 局', 'table.dealing': '正在洗牌…',
  'act.play': '出牌', 'act.pass': '不出', 'act.hint': '提示', 'act.auto': '托管', 'act.autooff': '取消托管',
  'act.nobid': '不叫', 'act.bid': '{n} 分', 'act.hit': '要牌', 'act.stand': '停牌',
  'act.cantbeat': '要不起', 'table.cantbeat': '轮到你了：要不起，你没有大过它的牌',
  'act.grab': '抢 {card}', 'act.nograb': '不抢', 'act.decline': '不抢', 'act.clear': '重选', 'act.type': '输入牌',
  'type.unread': '看不懂：{words}（例：33344、10 J Q K A、bj rj、9h）', 'type.missing': '你手里没有：{cards}',
  'type.cannot': '现在不能出 {cards}',
  'act.resign': '认输', 'act.undo': '悔棋', 'act.accept': '同意', 'act.refuse': '拒绝',
  'act.next': '再来一局', 'act.sgf': '下载棋谱 SGF', 'act.replay': '回放',
  'dd.landlord': '地主', 'dd.farmer': '农民', 'dd.kitty': '底牌', 'dd.bid': '叫 {n} 分', 'dd.nobid': '不叫',
  'dd.multiplier': '倍数 ×{n}', 'dd.base': '底分 {n}', 'dd.pass': '不出', 'dd.spring': '春天！', 'dd.antispring': '反春！',
  'd5.faceup': '明牌 {card}', 'd5.partner': '副地主', 'd5.declare': '叫牌', 'd5.grabs': '抢 {n} 次',
  // The seed's own words for 不打自胜 (002, §5).
  'd5.instant.no_partner_card': '正地主没有牌叫副地主，本局结束。', 'd5.instant.big_bomb': '正地主有10张牌以上（含10张）的炸弹，本局结束。', 'd5.instant.no_bomb': '正地主一个炸弹都没有，本局结束。',
  'd5.declare.partner': '找帮手', 'd5.declare.hidden_solo': '暗独', 'd5.declare.marked': '叫牌', 'd5.declare.open_solo': '明独',
  'd5.marked': '叫了一张牌', 'd5.opensolo': '明独：一打四',
  'b2.lead': '须含 {card}',
  'th.dealer': '庄家', 'th.bust': '爆牌', 'th.stood': '停牌', 'th.points': '{n} 点', 'th.round': '第 {n} 轮',
  'th.base': '底牌', 'th.deck': '牌堆剩 {n} 张', 'th.pot': '奖池',
  'th.fewest': '罚分最少者胜；得分即所罚分数的负数。',
  'go.board': '棋盘', 'go.empty': '空', 'go.barred': '空，黑方禁手', 'go.last': '最后一手',
  'go.black': '黑', 'go.white': '白', 'go.undoask': '对方请求悔棋，同意吗？', 'go.undowait': '已请求悔棋，等待对方回答…',
  'go.forbidden': '显示禁手', 'go.clock': '用时', 'go.win': '{color}方五连胜', 'go.resigned': '{color}方认输', 'go.timedout': '{color}方超时判负',
  'go.draw': '和棋：棋盘已满', 'go.undoleft': '悔棋剩 {n} 次', 'go.refused': '对方拒绝悔棋（不计次数）',
  'go.resignask': '认输吗？这一局就算你输了。', 'go.playon': '继续下',
  'go.youplay': '你执{color}', 'go.undoby': '{name}（{color}方）请求悔棋', 'go.undoasked': '{name} 请求悔棋，收回上一手。同意吗？',
  'go.undoasked2': '{name} 请求悔棋，收回上一手和你的应手。同意吗？',
  'go.why.none': '还没有可以悔的棋', 'go.why.refused': '对方已拒绝：下一手棋之前再请求，要用掉一次悔棋', 'go.why.used': '悔棋次数已用完（每局 {n} 次）',
  'go.why.waiting': '正在等对方回答', 'go.why.answer': '请先回答对方的悔棋请求',
  'th.penalty': '罚 {n} 分', 'th.out': '出局', 'th.bustnew': '爆牌{cards}（罚 {n} 分），换新底牌', 'th.bustout': '爆牌{cards}（罚 {n} 分），本轮出局',
  'th.showdown': '第 {n} 轮摊牌', 'th.lost': '{name} 最小，吃下奖池：罚 {pot} 分', 'th.potwins': '（2 分，加本轮 {w} 人胜出各 2 分）', 'th.potwin1': '（2 分，加本轮一人胜出的 2 分）',
  'th.nobody': '无人停牌，无人受罚', 'th.cards': '{n} 张', 'th.card': '1 张', 'th.cardlist': '：{cards}', 'th.lowest': '最小',
  'rules.how': '玩法', 'rules.tenhalf.title': '十点半：这种玩法怎么玩',
  'rules.tenhalf': '这不是常见的“坐庄比大小”：没有人和庄家对赌，各自为战，输了记罚分；一局结束时罚分最少者胜。\n点数：A 算 1，2–10 按牌面，J、Q、K 和大小王各算半点。尽量接近十点半，但不能超过。\n每轮每人先发一张扣着的底牌，只有自己看得到；从庄家下家开始轮流要牌，庄家最后。\n7 点及以下必须要牌；7 点半到 10 点可以要牌，也可以停牌。\n正好十点半，或五张牌不超过十点半（五龙），立即胜出，离开本轮，奖池加 2 分。\n超过十点半就是爆牌：亮牌，立即罚 2 分，再拿一张新底牌接着要。\n摊牌：停牌的人里点数最小的输（点数相同牌少的输，再比最大的一张牌），吃下奖池：罚 2 分，本轮每有一人胜出再加 2 分。\n一副牌一直发下去，不够再发一轮时本局结束；每局庄家顺延一位。',
  'over.title': '本局结束', 'over.score': '得分', 'over.total': '总分', 'over.won': '你赢了！', 'over.lost': '你输了',
  'over.outfirst': '{name} 先出完了', 'over.yourscore': '你的得分 {n}：按各家手里剩下的牌计算',
  'over.fair': '发牌公平：公开的种子与发牌前的承诺相符。', 'over.nonce': '你的随机数也在其中。', 'over.unfair': '种子与承诺不符！',
  'over.draw': '平局', 'over.hands': '各家手牌', 'over.verify': '种子已公开，承诺 {c}…',
  'chat.title': '聊天', 'chat.placeholder': '说点什么…', 'chat.send': '发送', 'chat.empty': '还没有人说话。',
  'moves.title': '记录', 'moves.over': '本局结束',
  'door.full': '这桌的座位已经坐满了。',
  'door.nowatch': '桌主没有允许观战。', 'door.private': '这是私人桌：需要完整的邀请链接。',
  'door.closed': '这张桌子不存在或已经关闭。', 'door.watching': '座位已满：你在观战。',
  'door.lobby': '回大厅',
  'login.title': '登录或注册', 'login.name': '用户名', 'login.password': '密码', 'login.login': '登录',
  'login.register': '注册', 'login.note': '游客的对局在注册后保留。', 'login.close': '关闭',
  'login.passhint': '注册时：至少 8 个字符', 'login.account': '账号', 'login.as': '已登录：{name}',
  'profile.title': '{name} 的战绩', 'profile.history': '最近对局', 'profile.ratings': '等级分',
  'profile.none': '还没有下完的对局。', 'profile.more': '更多对局', 'profile.record': '战绩', 'profile.played': '对局数', 'profile.won': '胜局', 'profile.score': '得分', 'profile.when': '时间',
  'profile.with': '同桌', 'profile.private': '私人桌', 'profile.private_hint': '在私人桌下的对局：战绩里只有你自己看得到', 'profile.computers': '{n} 个电脑', 'profile.computer': '1 个电脑',
  'replay.title': '回放 {id}', 'replay.step': '第 {n} / {total} 步', 'replay.prev': '上一步', 'replay.next': '下一步',
  'replay.first': '开头', 'replay.last': '结尾', 'replay.verify': '记录', 'replay.back': '返回',
  'replay.play': '自动播放', 'replay.pause': '暂停',
  'err.illegal': '这手牌不合规则', 'err.not_your_turn': '还没轮到你', 'err.stale': '局面已变，请再试',
  'err.no_table': '桌子不存在或已关闭', 'err.private': '这是私人桌，需要邀请链接', 'err.no_spectators': '桌主没有允许观战', 'err.wrong_password': '密码不对',
  'err.name_taken': '用户名已被占用', 'err.bad_name': '用户名：2–24 个字母、数字、_ 或 -，只用一种文字（拉丁字母可与中日韩文字同用）', 'err.bad_password': '密码至少 8 个字符',
  'err.rate_limited': '操作太快了，请稍候', 'err.guest': '游客没有密码：注册后就有了',
  'password.title': '修改密码', 'password.current': '当前密码', 'password.new': '新密码', 'password.again': '再输一遍新密码',
  'password.change': '修改', 'password.note': '修改后，这个账号在别处的登录都会退出。', 'password.mismatch': '两次输入的新密码不一样',
  'password.changed': '密码已修改。已退出的其他登录：{n} 个。',
  'delete.title': '删除账号', 'delete.note': '用户名会释放，密码和等级分删除，所有登录退出。对局记录保留（以“deleted-编号”显示），因为它们也属于其他玩家。',
  'delete.sure': '我确定要删除这个账号', 'delete.confirm': '删除', 'delete.done': '账号已删除。', 'err.seated': '请先离开你所在的桌子',
  'mod.ban': '封禁…', 'mod.unban': '解除封禁', 'mod.reason': '为什么封禁 {name}？（对方会看到）', 'mod.banned_badge': '已封禁',
  'mod.banned': '{name} 已被封禁。', 'mod.unbanned': '{name} 已解除封禁。',
  'mod.bans': '封禁名单', 'mod.none': '没有被封禁的账号。',
  'err.too_many_accounts': '你这边新建的账号太多了：请登录，或稍后再试', 'err.taken_over': '你在另一个窗口登录了这个账号',
  'err.storage': '服务器暂时无法存储：这一步没有被接受。牌桌会等存储恢复后继续，请稍后再试。',
  'err.bad_json': '消息格式不对（不是 JSON）', 'err.bad_message': '服务器看不懂这条消息', 'err.bad_version': '页面版本太旧：请刷新页面',
  'err.hello_first': '连接还没准备好，请刷新页面', 'err.hello_again': '连接已经建立过了', 'err.too_many_connections': '你这边打开的连接太多了：关掉别的页面',
  'err.not_logged_in': '请先登录、注册或以游客身份进入', 'err.bad_token': '登录已过期，请重新登录', 'err.banned': '这个账号已被封禁（{message}）',
  'err.address_blocked': '你这边暂时不能新建账号（曾有账号被封禁）：请登录已有账号，或明天再试', 'err.not_moderator': '只有管理员可以这样做', 'err.not_allowed': '不能封禁这个账号',
  'err.no_user': '没有这个玩家', 'err.bad_reason': '请写明理由（最多 300 字）', 'err.unknown_game': '没有这个游戏',
  'err.bad_options': '桌子的设置不对', 'err.unknown_bot': '没有这种电脑玩家', 'err.hall_full': '服务器上的桌子太多了，请稍后再试',
  'err.too_many_tables': '你同时在玩的桌子太多了：先离开一桌',
  'err.no_seat': '没有这个座位', 'err.seat_taken': '这个座位有人了', 'err.table_full': '座位已满',
  'err.not_seated': '你不在这桌入座', 'err.not_host': '只有桌主可以这样做', 'err.no_computers': '这桌不允许电脑玩家',
  'err.no_bot': '这个座位上没有电脑玩家', 'err.not_watching': '先入座或观战才能在这桌聊天', 'err.playing': '对局进行中，不能这样做',
  'err.wrong_phase': '现在不能这样做', 'err.bad_nonce': '随机数不对', 'err.nonce_sent': '你已经交过随机数了',
  'err.bad_action': '看不懂这一步', 'err.game_over': '这局已经结束了', 'err.bad_config': '游戏设置不对',
  'err.bad_record': '对局记录无法重放', 'err.bot_failed': '电脑玩家出错了', 'err.stuck': '对局出错，无法继续',
  'err.bad_chat': '聊天内容为空或太长', 'err.internal': '服务器出错了：这一步没有被接受，请再试',
  // Computer levels, the record against them, rated play told (levels.js).
  'level.easy': '简单', 'level.normal': '普通', 'level.strong': '困难', 'level.n': '{n} 级',
  'level.quick': '电脑强度', 'level.pick': '电脑：{level}', 'level.record': '与电脑对局', 'level.level': '电脑强度', 'level.won': '胜', 'level.lost': '负', 'level.drawn': '和',
  'meta.rated': '排位', 'meta.rated_hint': '计入等级分的对局', 'meta.turn': '每步 {n} 秒', 'meta.clock': '每方 {n} 分钟', 'meta.level': '电脑：{level}', 'meta.rating': '等级分',
};

// Where the server's own sentence says more than a fixed text could (a ban's reason, which
// of several storage troubles), the English entry is that sentence: {message}.
const en = {
  loading: 'Connecting…',
  'nav.lobby': 'Lobby', 'nav.profile': 'Profile', 'nav.ranks': 'Rankings',
  'ranks.title': 'Rankings', 'ranks.games': 'Games', 'ranks.player': 'Player', 'ranks.rating': 'Rating', 'ranks.games_played': 'Games',
  'ranks.none': 'No rated games of {game} yet.', 'ranks.provisional': 'Few games yet: this rating is still uncertain',
  'ranks.how': 'Only games between registered players at tables marked Rated count. A rating with ? rests on few games yet: it is ranked after about fifteen rated games.',
  'ranks.provisional_head': 'Not ranked yet (few games)',
  'conn.online': '', 'conn.offline': 'Connection lost, reconnecting…',
  'conn.restarting': 'The server is restarting; reconnecting…',
  'conn.crowded': 'Too many connections from your address: close another tab; retrying…',
  'user.guest': 'guest', 'user.login': 'Log in / register', 'user.logout': 'Log out',
  'lobby.title': 'Pick a game and play at once', 'lobby.quick': 'Play vs computers', 'lobby.create': 'New table',
  'lobby.tables': 'Open tables', 'lobby.none': 'No public table is waiting for players. Open one, or play against computers.',
  'lobby.mine': 'Your tables', 'lobby.return': 'Return', 'lobby.playing': 'Being played (watch)',
  'lobby.seat': 'you sit in seat {n}',
  'lobby.join': 'Sit', 'lobby.watch': 'Watch', 'lobby.players': '{n} players',
  'lobby.host': 'host {name}', 'lobby.spectators': '{n} watching',
  'status.waiting': 'waiting', 'status.dealing': 'dealing', 'status.playing': 'playing', 'status.stalled': 'waiting for storage', 'status.closed': 'closed',
  'create.title': 'New table: {game}', 'create.seats': 'Seats', 'create.private': 'Private (join by invite link)',
  'create.computers': 'Computers may play', 'create.rated': 'Rated (registered players)',
  'create.spectators': 'People with the link may watch',
  'create.turn': 'Seconds per turn', 'create.go': 'Open table', 'create.cancel': 'Cancel',
  'create.rule': 'Rule', 'rule.freestyle': 'Freestyle', 'rule.standard': 'Standard (exactly five)', 'rule.renju': 'Renju (black forbidden points)',
  'create.undo': 'Undo', 'undo.ask': 'opponent decides', 'undo.always': 'always allowed', 'undo.never': 'never',
  'table.four': '4 colours', 'table.fourtitle': 'Clubs green, diamonds blue', 'replay.action': '{name}: {action}', 'replay.timedout': '{name} ran out of time; the default move: {action}',
  'table.leave': 'Leave', 'table.invite': 'Invite link', 'table.copied': 'Invite link copied',
  'table.seat': 'Seat {n}', 'table.empty': 'empty', 'table.sit': 'Sit here', 'table.addbot': 'Add computer',
  'table.lastturn': 'last turn of {name}', 'table.you': 'you', 'table.bot': 'computer', 'table.away': 'away', 'table.auto': 'auto-play',
  'table.ready': 'Ready', 'table.notready': 'Not ready', 'table.waiting': 'Waiting for players…', 'table.fill': 'Computers take the empty seats in {time}; people may still join',
  'table.spectating': 'Watching', 'table.yourturn': 'Your turn', 'table.yourturnoffline': 'Your turn, once the connection is back', 'table.turnof': 'Waiting for {name}',
  'table.cardsleft': '{n} left', 'table.games': 'Game {n}', 'table.dealing': 'Shuffling…',
  'act.play': 'Play', 'act.pass': 'Pass', 'act.hint': 'Hint', 'act.auto': 'Auto-play', 'act.autooff': 'Stop auto',
  'act.nobid': 'No bid', 'act.bid': 'Bid {n}', 'act.hit': 'Hit', 'act.stand': 'Stand',
  'act.cantbeat': "Can't beat", 'table.cantbeat': 'Your turn: nothing in your hand beats it',
  'act.grab': 'Grab {card}', 'act.nograb': 'No grab', 'act.decline': 'No grab', 'act.clear': 'Clear', 'act.type': 'Type cards',
  'type.unread': 'Not cards: {words} (try 33344, 10 J Q K A, bj rj, 9h)', 'type.missing': 'Not in your hand: {cards}',
  'type.cannot': '{cards} cannot be played now',
  'act.resign': 'Resign', 'act.undo': 'Undo', 'act.accept': 'Accept', 'act.refuse': 'Refuse',
  'act.next': 'Next game', 'act.sgf': 'Download SGF', 'act.replay': 'Replay',
  'dd.landlord': 'Landlord', 'dd.farmer': 'Farmer', 'dd.kitty': 'Kitty', 'dd.bid': 'bid {n}', 'dd.nobid': 'no bid',
  'dd.multiplier': '×{n}', 'dd.base': 'base {n}', 'dd.pass': 'pass', 'dd.spring': 'Spring!', 'dd.antispring': 'Anti-spring!',
  'd5.faceup': 'Face-up {card}', 'd5.partner': 'Partner', 'd5.declare': 'Declare', 'd5.grabs': '{n} grabs',
  'd5.instant.no_partner_card': 'The landlord has no card to call a partner with: the landlord wins, the game is over.', 'd5.instant.big_bomb': 'The landlord holds a bomb of ten or more cards: the landlord wins, the game is over.', 'd5.instant.no_bomb': 'The landlord holds no bomb at all: the landlord wins, the game is over.',
  'd5.declare.partner': 'Call a partner', 'd5.declare.hidden_solo': 'Hidden solo', 'd5.declare.marked': 'declares', 'd5.declare.open_solo': 'Open solo',
  'd5.marked': 'called a card', 'd5.opensolo': 'Open solo: one against four',
  'b2.lead': 'must include {card}',
  'th.dealer': 'Dealer', 'th.bust': 'Bust', 'th.stood': 'Stands', 'th.points': '{n} pts', 'th.round': 'Round {n}',
  'th.base': 'base card', 'th.deck': '{n} in the deck', 'th.pot': 'Pot',
  'th.fewest': 'The fewest penalty points win; a score is the penalty points taken, as a loss.',
  'go.board': 'board', 'go.empty': 'empty', 'go.barred': 'empty, forbidden to black', 'go.last': 'last move',
  'go.black': 'Black', 'go.white': 'White', 'go.undoask': 'Your opponent asks to undo. Allow it?', 'go.undowait': 'Undo asked, waiting for the answer…',
  'go.forbidden': 'Show forbidden points', 'go.clock': 'Clock', 'go.win': '{color} wins with five', 'go.resigned': '{color} resigned', 'go.timedout': '{color} ran out of time',
  'go.draw': 'Draw: the board is full', 'go.undoleft': '{n} undos left', 'go.refused': 'Undo refused (not counted)',
  'go.resignask': 'Resign? The game counts as lost.', 'go.playon': 'Play on',
  'go.youplay': 'You play {color}', 'go.undoby': '{name} ({color}) asks to undo', 'go.undoasked': '{name} asks to take back their last move. Allow it?',
  'go.undoasked2': '{name} asks to take back their last move and your reply. Allow it?',
  'go.why.none': 'Nothing to take back yet', 'go.why.refused': 'Refused: asking again before the next stone uses one of your undos', 'go.why.used': 'No undos left ({n} granted per game)',
  'go.why.waiting': 'Waiting for the answer', 'go.why.answer': 'Answer the undo request first',
  'th.penalty': 'Penalty {n}', 'th.out': 'Out', 'th.bustnew': 'Bust{cards} (−{n}), new base card', 'th.bustout': 'Bust{cards} (−{n}), out of the round',
  'th.showdown': 'Round {n} showdown', 'th.lost': '{name} loses and takes the pot: −{pot}', 'th.potwins': ' (2, plus 2 for each of the round\'s {w} outright wins)', 'th.potwin1': ' (2, plus 2 for the round\'s outright win)',
  'th.nobody': 'Nobody stood: nobody pays', 'th.cards': '{n} cards', 'th.card': '1 card', 'th.cardlist': ': {cards}', 'th.lowest': 'lowest',
  'rules.how': 'How to play', 'rules.tenhalf.title': 'Ten and a half: how this variant plays',
  'rules.tenhalf': 'Not the banker game: nobody bets against the dealer. Everyone plays for themselves, for penalty points, and the fewest penalty points win the game.\nCards: A = 1, 2–10 as marked, J, Q, K and both jokers = ½. Get as close to 10½ as you can without going over.\nEach round everyone gets one face-down base card that only they see; play goes round from the dealer\'s left, the dealer last.\nAt 7 or less you must hit; from 7½ to 10 you may hit or stand.\nExactly 10½, or five cards without going over (five dragons), wins at once: you leave the round and the pot grows by 2.\nOver 10½ is a bust: your cards are shown, you take 2 penalty points at once, get a new base card and play on.\nShowdown: of those who stood, the lowest total loses (on a tie fewer cards lose, then the lower best card) and takes the pot: 2 penalty points, plus 2 for each outright win that round.\nRounds are dealt from one deck until it runs out; the dealer moves on one seat each game.',
  'over.title': 'Game over', 'over.score': 'Score', 'over.total': 'Total', 'over.won': 'You won!', 'over.lost': 'You lost',
  'over.outfirst': '{name} went out first', 'over.yourscore': 'Your score: {n}, counted from the cards each player was left holding',
  'over.fair': 'Fair deal: the revealed seed matches the commitment made before the deal.', 'over.nonce': 'Your nonce is in it.', 'over.unfair': 'The seed does not match the commitment!',
  'over.draw': 'Draw', 'over.hands': 'Hands', 'over.verify': 'Seed revealed; commitment {c}…',
  'chat.title': 'Chat', 'chat.placeholder': 'Say something…', 'chat.send': 'Send', 'chat.empty': 'Nobody has said anything yet.',
  'moves.title': 'Moves', 'moves.over': 'Game over',
  'door.full': 'Every seat at this table is taken.',
  'door.nowatch': 'The host does not let others watch.', 'door.private': 'This table is private: it needs its whole invite link.',
  'door.closed': 'This table does not exist or has closed.', 'door.watching': 'The table is full: you are watching.',
  'door.lobby': 'Back to the lobby',
  'login.title': 'Log in or register', 'login.name': 'Name', 'login.password': 'Password', 'login.login': 'Log in',
  'login.register': 'Register', 'login.note': 'A guest who registers keeps its games.', 'login.close': 'Close',
  'login.passhint': 'To register: at least 8 characters', 'login.account': 'Account', 'login.as': 'Logged in as {name}',
  'profile.title': '{name}', 'profile.history': 'Recent games', 'profile.ratings': 'Ratings',
  'profile.none': 'No finished games yet.', 'profile.more': 'More games', 'profile.record': 'Record', 'profile.played': 'Games', 'profile.won': 'Won', 'profile.score': 'Score', 'profile.when': 'When',
  'profile.with': 'With', 'profile.private': 'private', 'profile.private_hint': 'Played at a private table: only you see it in your history', 'profile.computers': '{n} computers', 'profile.computer': '1 computer',
  'replay.title': 'Replay {id}', 'replay.step': 'Step {n} / {total}', 'replay.prev': 'Back', 'replay.next': 'Forward',
  'replay.first': 'Start', 'replay.last': 'End', 'replay.verify': 'Record', 'replay.back': 'Back',
  'replay.play': 'Play', 'replay.pause': 'Pause',
  'err.illegal': 'That play is not allowed', 'err.not_your_turn': 'Not your turn yet', 'err.stale': 'The game moved on; try again',
  'err.no_table': 'No such table', 'err.private': 'This table is private: it needs its invite link', 'err.no_spectators': 'The host does not let others watch', 'err.wrong_password': 'Wrong password',
  'err.name_taken': 'That name is taken', 'err.bad_name': 'Names: 2–24 letters, digits, _ or -, letters of one script (Latin may go with Chinese, Japanese or Korean)', 'err.bad_password': 'Passwords have at least 8 characters',
  'err.rate_limited': 'Too fast, slow down', 'err.guest': 'A guest has no password: register to choose one',
  'password.title': 'Change password', 'password.current': 'Current password', 'password.new': 'New password', 'password.again': 'New password again',
  'password.change': 'Change', 'password.note': 'Every other login of this account ends.', 'password.mismatch': 'The two new passwords differ',
  'password.changed': 'Password changed. Other logins ended: {n}.',
  'delete.title': 'Delete account', 'delete.note': 'The name is released, the password and ratings go, every login ends. The games stay, shown as "deleted-<number>", since they are the other players\' records too.',
  'delete.sure': 'I want to delete this account', 'delete.confirm': 'Delete', 'delete.done': 'The account is deleted.', 'err.seated': 'Leave your tables first',
  'mod.ban': 'Ban…', 'mod.unban': 'Lift the ban', 'mod.reason': 'Why ban {name}? (They will see it.)', 'mod.banned_badge': 'banned',
  'mod.banned': '{name} is banned.', 'mod.unbanned': '{name} is no longer banned.',
  'mod.bans': 'Banned accounts', 'mod.none': 'Nobody is banned.',
  'err.too_many_accounts': 'Too many new accounts from your address: log in, or try again later', 'err.taken_over': 'You logged in from another window',
  'err.bad_json': 'That message is not JSON', 'err.bad_message': 'The server cannot read that message', 'err.bad_version': 'This page is out of date: reload it',
  'err.hello_first': 'The connection is not ready: reload the page', 'err.hello_again': 'The connection is already set up', 'err.too_many_connections': 'Too many connections from your address: close another tab',
  'err.not_logged_in': 'Log in, register or play as a guest first', 'err.bad_token': 'Your session has ended: log in again', 'err.banned': '{message}',
  'err.address_blocked': '{message}', 'err.not_moderator': 'Only moderators may do that', 'err.not_allowed': 'That account cannot be banned',
  'err.no_user': 'No such player', 'err.bad_reason': 'Give a reason (at most 300 characters)', 'err.unknown_game': 'No such game',
  'err.bad_options': 'Those table options are not valid', 'err.unknown_bot': 'No such computer player', 'err.hall_full': 'The server has too many tables open: try again later',
  'err.too_many_tables': 'You are playing at too many tables at once: leave one first',
  'err.no_seat': 'No such seat', 'err.seat_taken': 'Someone sits there', 'err.table_full': 'Every seat is taken',
  'err.not_seated': 'You have no seat at this table', 'err.not_host': 'Only the table\'s host may do that', 'err.no_computers': 'This table takes no computers',
  'err.no_bot': 'No computer sits there', 'err.not_watching': 'Sit or watch the table to chat there', 'err.playing': 'Not while a game is being played',
  'err.wrong_phase': 'Not now', 'err.bad_nonce': 'That nonce is not valid', 'err.nonce_sent': 'You have sent your nonce',
  'err.bad_action': 'That move cannot be read', 'err.game_over': 'The game is over', 'err.bad_config': 'Those game settings are not valid',
  'err.bad_record': 'That record does not replay', 'err.bot_failed': 'A computer player failed', 'err.stuck': 'The game cannot go on',
  'err.bad_chat': 'A chat line has 1 to 300 characters', 'err.internal': 'The server failed: that was not accepted; try again', 'err.storage': '{message}',
  // Computer levels, the record against them, rated play told (levels.js).
  'level.easy': 'Easy', 'level.normal': 'Normal', 'level.strong': 'Strong', 'level.n': 'Level {n}',
  'level.quick': 'Computer strength', 'level.pick': 'Computers: {level}', 'level.record': 'Against computers', 'level.level': 'Computer strength', 'level.won': 'Won', 'level.lost': 'Lost', 'level.drawn': 'Drawn',
  'meta.rated': 'Rated', 'meta.rated_hint': 'Counted for ratings', 'meta.turn': '{n} s a turn', 'meta.clock': '{n} min each', 'meta.level': 'computers: {level}', 'meta.rating': 'Rating',
};

const DICTS = { zh, en };
const browser = (navigator.language || 'en').toLowerCase().startsWith('zh') ? 'zh' : 'en';
let current = localStorage.getItem(KEY) === 'en' || localStorage.getItem(KEY) === 'zh' ? localStorage.getItem(KEY) : browser;
const listeners = [];

/** The current language: 'zh' or 'en'. */
export function lang() {
  return current;
}

/** The text for `key` in the current language, with {name} placeholders filled. */
export function t(key, vars) {
  const text = DICTS[current][key] ?? zh[key] ?? key;
  return vars ? text.replace(/\{(\w+)\}/g, (_, k) => (vars[k] ?? '')) : text;
}

/** Whether a key exists (to fall back to server text for unknown codes). */
export function has(key) {
  return key in DICTS[current];
}

/** Switches language, remembers it and redraws. */
export function setLang(l) {
  current = l === 'en' ? 'en' : 'zh';
  localStorage.setItem(KEY, current);
  translate();
  for (const f of listeners) f(current);
}

/** Calls `f` after every switch; returns the function that stops it. */
export function onLang(f) {
  listeners.push(f);
  return () => listeners.splice(listeners.indexOf(f) >>> 0, 1);
}

/** Fills the static text of the page. */
export function translate(root = document) {
  document.documentElement.lang = current === 'zh' ? 'zh-CN' : 'en';
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
}
