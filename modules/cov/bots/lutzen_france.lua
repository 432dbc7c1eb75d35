-- Congress of Vienna: the simple French bot of the Lützen & Bautzen scenario (Playbook
-- 18.4.5-18.4.7), its tables as data next to the code. Built so far: the wager card and
-- the issues it picks (18.4.5.2-18.4.5.3), Government spending (18.4.6.1), the placement of
-- French units (18.4.7.1) and the War Phase's placements and moves (18.4.7.2-18.4.7.5). The
-- rounds of negotiation, withdrawals and military cards come next;
-- for a decision it has no table for yet, the bot says so and takes the first action.

local flowchart = include("@lib/flowchart.lua")
local util = include("@lib/util.lua")
local powers = include("rules/powers.lua")
local forces = include("rules/forces.lua")
local war = include("rules/war.lua")
local display = include("rules/display.lua")
local cards = include("rules/cards.lua")
local trade = include("bots/lib/trade.lua")
local libissues = include("bots/lib/issues.lua")
local reach = include("bots/lib/track.lua")
local botwar = include("bots/lib/war.lua")
local battle = include("rules/battle.lua")
local decide = include("rules/decide.lua")
local options = include("rules/options.lua")
local playbook = include("bots/lib/playbook.lua")
local chart = include("bots/lib/chart.lua")

local bot = {}

-- 18.4.5.3: the issues France takes in Issue Selection, in order; then the French priority
-- list of 18.4.5.7 (RULES-GAPS.md). "minor_unit": a minor ally that provides a unit.
local SELECTION = { "lib_abs", "saxony", "mil_op_fr" }
local PRIORITY = { "recruit_fr", "lib_abs", "minor_unit", "sweden_at_war", "mil_op_fr", "fin_aid_br", "minor",
  "allied_mil_op", "allied_recruitment" }

-- 18.4.7.2: the French Military Operations go to these armies, in this order.
local OPERATIONS = { "block.grande_armee", "block.elbe" }

-- 18.4.7.4: after two on the Grande Armée, supports go to fronts with a battle, in this
-- order.
local SUPPORT_FRONTS = { "B", "D", "G", "E", "C", "F" }

-- 18.4.7.5: units leave fronts without a battle in this order, and go to fronts with a
-- battle in this order, one each in turn.
local MOVE_FROM = { "F", "C", "E", "D", "B", "A" }
local MOVE_TO = { "B", "A", "D", "E", "C", "F" }

local function index_of(actions, wanted)
  return flowchart.first(actions, wanted)
end

-- The index of the first action named `name` (with the argument `arg`, if given), or nil.
local named = chart.named

-- The box of the French army of each front (the first in the data's order; the War of
-- 1812 box for G), by front. A bot's call changes nothing, so one call works it out once.
local function french_boxes(ctx)
  local boxes = { G = forces.W1812 }
  for _, block in ipairs(forces.armies_of(ctx, "FR")) do
    local front = forces.front_of(ctx, block)
    if boxes[front] == nil then
      boxes[front] = forces.box(block)
    end
  end
  return boxes
end

--- The fronts of `order`, in that order, that will have a battle this War Phase and where
--- France has an army (`boxes`, from french_boxes).
local function fronts_with_battle(ctx, order, boxes)
  return util.filter(order, function(front)
    return war.battle_on(ctx, front) and boxes[front] ~= nil
  end)
end

-- 18.4.7.2 and 18.4.7.3: France's own Military Operations, then the Allied ones it won
-- (the Russian on Front A; the British where France's unit advantage is best).
function bot.place_ops(ctx, _, actions, t)
  local op = ctx.locals.todo[1]
  if op.enemy and op.owner == "RU" then
    t:step("18.4.7.3: a won Russian Military Operation goes to Front A.")
    local i = index_of(actions, function(a)
      return type(a.arg) == "string" and string.find(a.arg, "^block%.") and forces.front_of(ctx, a.arg) == "A"
    end)
    return t:choose(i or 1, "%s.", actions[i or 1].label)
  elseif op.enemy then
    t:step("18.4.7.3: a won British Military Operation goes where France's unit advantage is best.")
    local best, best_diff
    local boxes = french_boxes(ctx)
    for k, action in ipairs(actions) do
      local front = action.arg == forces.W1812 and "G" or forces.front_of(ctx, action.arg)
      local mine = boxes[front]
      local diff = (mine and forces.units(ctx, mine, "FR") or 0) - forces.units(ctx, front == "G" and forces.W1812
        or forces.box(action.arg), "allied")
      t:step("Front %s: %+d units.", front, diff)
      if best_diff == nil or diff > best_diff then
        best, best_diff = k, diff
      end
    end
    return t:choose(best, "%s: the best differential (%+d).", actions[best].label, best_diff)
  end
  local placed = 0
  for _, entry in ipairs(ctx.vars.war.ops) do
    if entry.owner == "FR" and entry.by == "FR" then
      placed = placed + 1
    end
  end
  local wanted = OPERATIONS[placed + 1]
  local i = wanted and index_of(actions, function(a)
    return a.arg == wanted
  end)
  if i == nil then
    return t:choose(1, "18.4.7.2 lists %d French Military Operations; this one goes with the first army offered.", #OPERATIONS)
  end
  return t:choose(i, "18.4.7.2, operation %d: %s.", placed + 1, actions[i].label)
end

-- 18.4.7.4: two Military Support markers on the Grande Armée, then one on each front that
-- will have a battle, in order.
function bot.place_supports(ctx, _, actions, t)
  local ga = index_of(actions, function(a)
    return a.arg == "army.grande_armee"
  end)
  if ga then
    return t:choose(ga, "18.4.7.4: the Grande Armée gets 2 (it has %d).", ctx:units("army.grande_armee", "FR_support"))
  end
  local boxes = french_boxes(ctx)
  for _, front in ipairs(fronts_with_battle(ctx, SUPPORT_FRONTS, boxes)) do
    local i = named(actions, "place", boxes[front])
    if i then
      return t:choose(i, "18.4.7.4: Front %s will have a battle: %s.", front, actions[i].label)
    end
  end
  return t:choose(named(actions, "done"), "18.4.7.4: no other front with a battle takes a marker.")
end

-- 18.4.7.5: one unit at a time from a front without a battle (F, C, E, D, B, A) to a front
-- with one (B, A, D, E, C, F), the fronts with a battle served in turn; every army keeps a
-- unit.
function bot.strategic(ctx, _, actions, t)
  local boxes = french_boxes(ctx)
  local to_fronts = fronts_with_battle(ctx, MOVE_TO, boxes)
  local done = named(actions, "done")
  if #to_fronts == 0 then
    return t:choose(done, "18.4.7.5: no French army has a battle to reinforce.")
  end
  local moved = #(ctx.locals.moves or {})
  local to = to_fronts[moved % #to_fronts + 1]
  t:step("18.4.7.5: fronts with a battle, in order: %s; move %d goes to Front %s.", table.concat(to_fronts, ", "),
    moved + 1, to)
  for _, front in ipairs(MOVE_FROM) do
    local from = boxes[front]
    if from and not war.battle_on(ctx, front) then
      local i = index_of(actions, function(a)
        return a.name == "move" and a.arg.from == from and a.arg.to == boxes[to] and a.arg.kind == "FR"
      end)
      if i then
        return t:choose(i, "Front %s has no battle and a unit to spare: %s.", front, actions[i].label)
      end
    end
  end
  return t:choose(done, "18.4.7.5: no front without a battle has a unit to spare.")
end

-- 18.4.6.1, after the mandatory issues (which the rules pay): French Recruitment, minor
-- countries that give units, Military Support up to the Military Operations of the turn,
-- one Resource on the Liberalism roll, then Sound Government.
-- Reading (RULES-GAPS.md): the operations counted are France's own and Napoleon's free one,
-- and the Grande Armée's second marker with Napoleon (18.4.7.4) counts as one more.
local function gives_units(ctx, piece)
  return libissues.gives_units(ctx, piece, "FR")
end

local function support_limit(ctx)
  local ops = botwar.french_ops_funded(ctx)
  if war.napoleon_available(ctx) and options.get(ctx, "lutzen_france.support_limit") == "with-napoleon" then
    ops = ops + 2
  end
  return ops
end

function bot.spend(ctx, _, actions, t)
  local i = named(actions, "fund", "issue.recruit_fr")
  if i then
    return t:choose(i, "18.4.6.1, 1: French Recruitment.")
  end
  i = index_of(actions, function(a)
    return a.name == "fund" and ctx.data.pieces[a.arg].props.minor ~= nil and gives_units(ctx, a.arg)
  end)
  if i then
    return t:choose(i, "18.4.6.1, 2: a minor country that gives units: %s.", actions[i].label)
  end
  local bought = ((ctx.vars.government or {}).supports or {}).FR or 0
  local limit = support_limit(ctx)
  i = named(actions, "support")
  if i and t:ask(string.format("18.4.6.1, 3: %d Military Support bought, fewer than %d (the operations this turn)?", bought,
    limit), bought < limit) then
    return t:choose(i, "Buy one.")
  end
  local spent = 0
  for _, entry in ipairs(((ctx.vars.government or {}).drm or {}).lib_abs or {}) do
    spent = spent + (entry.power == "FR" and 1 or 0)
  end
  -- Liberalism: France's own issue funded, or one Resource on the roll when Britain won it.
  local liberal = util.contains({ "FR", "BR" }, display.track_of(ctx, "issue.lib_abs"))
  i = named(actions, "fund", "issue.lib_abs") or (spent == 0 and liberal and named(actions, "lib_abs")) or nil
  if i then
    return t:choose(i, "18.4.6.1, 4: the Liberalism roll, one Resource.")
  end
  i = named(actions, "sound")
  if i then
    return t:choose(i, "18.4.6.1, 5: Sound Government.")
  end
  return t:choose(named(actions, "done"), "Nothing left to spend on.")
end

-- 18.4.7.1: new French units: one to each army without a unit (fronts in alphabetical
-- order), the Grande Armée up to 4, then half of the rest (rounded up) to Front A, half of
-- the rest to B, half of the rest to D, the rest to C. The plan is made for all the units
-- to place at once; the bot places them one at a time in its order.
local HALVES = { "A", "B", "D" }

local function placement_plan(ctx, n, counts)
  local plan = {}
  local function put(box)
    plan[#plan + 1] = box
    counts[box] = (counts[box] or 0) + 1
  end
  local fronts = {}
  local boxes = french_boxes(ctx)
  for _, front in ipairs(forces.FRONTS) do
    local box = boxes[front]
    if box and front ~= "G" then
      fronts[#fronts + 1] = { front = front, box = box }
    end
  end
  for _, entry in ipairs(fronts) do
    if #plan < n and (counts[entry.box] or 0) == 0 then
      put(entry.box)
    end
  end
  local ga = "army.grande_armee"
  while #plan < n and forces.active(ctx, "block.grande_armee") and (counts[ga] or 0) < 4 do
    put(ga)
  end
  for _, front in ipairs(HALVES) do
    local box = boxes[front]
    local half = math.ceil((n - #plan) / 2)
    for _ = 1, box and half or 0 do
      put(box)
    end
  end
  local last = boxes.C or boxes.A
  while #plan < n and last do
    put(last)
  end
  return plan
end

function bot.new_units(ctx, _, actions, t)
  local placed = ctx.locals.placed or {}
  local counts, french = {}, 0
  for _, block in ipairs(forces.armies_of(ctx, "FR")) do
    local box = forces.box(block)
    counts[box] = forces.units(ctx, box, "FR")
  end
  for _, entry in ipairs(placed) do
    if entry.kind == "FR" then
      counts[entry.box] = (counts[entry.box] or 0) - 1
      french = french + 1
    end
  end
  local us = index_of(actions, function(a)
    return a.arg.kind == "US" and a.arg.box == forces.W1812
  end)
  if us then
    return t:choose(us, "A US unit goes to the War of 1812 box.")
  end
  local n = ctx:units("reserve.FR", "FR") + french
  local plan = placement_plan(ctx, n, counts)
  local box = plan[french + 1]
  local names = {}
  for k, b in ipairs(plan) do
    names[k] = ctx.data.boxes[b].name
  end
  t:step("18.4.7.1: the plan for %d new unit%s: %s.", n, n == 1 and "" or "s", table.concat(names, ", "))
  local i = box and index_of(actions, function(a)
    return a.arg.box == box and a.arg.kind == "FR"
  end)
  return t:choose(i or 1, "Unit %d of %d: %s.", french + 1, n, actions[i or 1].label)
end

-- The first offered issue of `list`, in its order (bots/lib/issues.lua).
local function first_issue(ctx, actions, list)
  return libissues.first_offered(ctx, actions, list, "FR")
end

-- 18.4.5.2: the wager card is the highest-valued Allied or Austrian card of the hand (at
-- random among equals; a card whose value is not entered counts as none).
function bot.wager(ctx, _, actions, t)
  local best, candidates = util.highest(chart.indices(actions), function(k)
    local card = actions[k].arg
    local f = ctx.data.cards[card].fields
    local nation = ctx:known("card", card, "nation") and f.nation or nil
    if not util.contains({ "RU", "BR", "AU" }, nation) then
      return nil
    end
    return ctx:known("card", card, "value") and f.value or -1
  end)
  if #candidates == 0 then
    return t:choose(1, "18.4.5.2: no Allied or Austrian card in hand: the first card.")
  end
  local pick = candidates[#candidates > 1 and ctx:random(#candidates, "18.4.5.2: equal wager cards") or 1]
  return t:choose(pick, "18.4.5.2: the highest Allied or Austrian card (%d): %s.", best, actions[pick].label)
end

-- 18.4.5.3: a won Wager takes Liberalism; Issue Selection follows the list, then the
-- French priority list.
function bot.free_issue(ctx, _, actions, t)
  local i = first_issue(ctx, actions, { "lib_abs" }) or first_issue(ctx, actions, PRIORITY)
  return t:choose(i or 1, "18.4.5.3: France won the Wager: %s.", actions[i or 1].label)
end

function bot.selection(ctx, _, actions, t)
  local i, rank = first_issue(ctx, actions, SELECTION)
  if i then
    return t:choose(i, "18.4.5.3, choice %d: %s.", rank, actions[i].label)
  end
  i, rank = first_issue(ctx, actions, PRIORITY)
  if i then
    return t:choose(i, "18.4.5.3 lists none left; the French priority list (18.4.5.7), %d: %s.", rank, actions[i].label)
  end
  local pick = ctx:random(#actions, "18.4.5.7: none of the list; at random")
  return t:choose(pick, "None of the French priority issues: at random, %s.", actions[pick].label)
end

-- ---------------------------------------------------------------------------------------
-- The Diplomacy Rounds (18.4.5.4-18.4.5.8).

local LETTER_RANK = cards.LETTER_RANK
local letter = cards.known_letter

local function field(ctx, card, name)
  return ctx:known("card", card, name) and ctx.data.cards[card].fields[name] or nil
end

-- 18.4.5.5: a card that can help France in the War Phase: a military card of France or
-- neutral, playable on a front where France fights (every front but G has a French army;
-- G is the War of 1812 box). Anything else is a "non-military" card. `boxes` is
-- french_boxes(ctx), worked out once for a whole hand.
local function helps_in_war(ctx, card, boxes)
  if cards.is_leader(ctx, card) then
    return card == "napoleon"
  end
  if field(ctx, card, "military") ~= true then
    return false
  end
  local nation = field(ctx, card, "nation")
  if nation ~= nil and nation ~= "FR" and nation ~= "neutral" then
    return false
  end
  local fronts = field(ctx, card, "fronts")
  if fronts == nil then
    return true
  end
  for _, front in ipairs(fronts) do
    if front == "G" or boxes[front] then
      return true
    end
  end
  return false
end

-- France's non-military cards (18.4.5.5): its hand less its Leader and the cards that can
-- help it in the War Phase.
local function non_military(ctx)
  local list = {}
  local boxes = french_boxes(ctx)
  for _, card in ipairs(cards.hand(ctx, "FR")) do
    if not helps_in_war(ctx, card, boxes) then
      list[#list + 1] = card
    end
  end
  return list
end

local function won_wager(ctx)
  return (ctx.vars.diplomacy or {}).winner == "FR"
end

local function round_of(ctx)
  return (ctx.vars.diplomacy or {}).round or 1
end

-- France's cards of `nation` whose French (blue) letter is C or D, lowest first.
local function low_cards_of(ctx, nation)
  return trade.low_cards(ctx, "FR", nation, "FR")
end

-- 18.4.5.4: the order of cards to trade away, France's penalty counted whoever's letters
-- order them.
local function trade_order(ctx, list, power)
  return trade.order(ctx, list, power, "FR")
end

-- 18.4.5.4: the trade France offers this round, if any: {to =, card =, why =}.
local function trade_to_offer(ctx, t)
  local round = round_of(ctx)
  if round == 1 then
    -- The lowest of the Russian and the British C or D cards together (L1277), to its power.
    local both = {}
    for _, nation in ipairs({ "RU", "BR" }) do
      local list = low_cards_of(ctx, nation)
      t:step("18.4.5.4, Round 1: %s C or D cards (blue letter): %d.", powers.name(ctx, nation), #list)
      for _, card in ipairs(list) do
        both[#both + 1] = card
      end
    end
    if #both > 0 then
      local card = trade_order(ctx, both, "FR")[1]
      return { to = field(ctx, card, "nation"), card = card,
        why = "Round 1: the lowest Russian or British C/D card, to its power" }
    end
  elseif round == 2 and options.get(ctx, "lutzen_france.trade_round2") == "assume-none" then
    for _, pair in ipairs({ { to = "RU", from = "BR" }, { to = "BR", from = "RU" } }) do
      local list = low_cards_of(ctx, pair.from)
      t:step("18.4.5.4, Round 2: %s C or D cards for %s (assumed to hold no French card): %d.",
        powers.name(ctx, pair.from), powers.name(ctx, pair.to), #list)
      if #list > 0 then
        return { to = pair.to, card = list[1], why = "Round 2: the lowest C/D card of the other Allied power" }
      end
    end
  end
  return nil
end

-- The issue classes of the priority list (18.4.5.7) and of the debate table (18.4.5.8).
local function priority_rank(ctx, piece)
  return libissues.rank(ctx, piece, PRIORITY, "FR")
end

local function class_of(ctx, piece)
  return PRIORITY[priority_rank(ctx, piece)]
end

-- 18.4.5.6's tie-break: a card with a bonus unit or Resource first; cards with +2 or more
-- for another priority issue kept back; then at random.
local function gives_bonus(ctx, card)
  local text = string.lower(field(ctx, card, "government") or "")
  return #(field(ctx, card, "bonus_issues") or {}) > 0 or string.find(text, "unit") ~= nil
    or string.find(text, "resource") ~= nil
end

local function saved_for_priority(ctx, card, piece)
  local mods = {}
  for k, v in pairs(field(ctx, card, "modifiers_all") or {}) do
    mods[k] = v
  end
  if field(ctx, card, "nation") == "FR" then
    for k, v in pairs(field(ctx, card, "modifiers") or {}) do
      mods[k] = (mods[k] or 0) + v
    end
  end
  local own = ctx.data.pieces[piece].props.issue
  for issue, n in pairs(mods) do
    local key = string.gsub(issue, "^FR/", "")
    if n >= 2 and key ~= own then
      for _, entry in ipairs(PRIORITY) do
        if key == entry or (entry == "minor_unit" and libissues.MINORS[key]) then
          return true
        end
      end
    end
  end
  return false
end

local function break_tie(ctx, tied, piece, t)
  if #tied == 1 then
    return tied[1]
  end
  local bonus = {}
  for _, card in ipairs(tied) do
    if gives_bonus(ctx, card) then
      bonus[#bonus + 1] = card
    end
  end
  if #bonus > 0 then
    t:step("Tied: a card with a bonus unit or Resource (%d).", #bonus)
    tied = bonus
  end
  local spare = {}
  for _, card in ipairs(tied) do
    if not saved_for_priority(ctx, card, piece) then
      spare[#spare + 1] = card
    end
  end
  if #spare > 0 and #spare < #tied then
    t:step("Cards with +2 or more on another priority issue are kept back.")
    tied = spare
  end
  if #tied == 1 then
    return tied[1]
  end
  return tied[ctx:random(#tied, "18.4.5.6: equal cards")]
end

-- The card of `hand` that takes `piece` furthest toward France, and where
-- (bots/lib/track.lua), equal cards broken by 18.4.5.6's tie rule.
local function best_card_for(ctx, hand, piece, debate, t)
  return reach.best_card(ctx, hand, piece, "FR", debate, function(tied)
    return break_tie(ctx, tied, piece, t)
  end)
end

local function position_words(ctx, pos)
  return reach.words(ctx, "FR", pos)
end

-- 18.4.5.6 and 18.4.5.7: the card France plays and the issue: {card, piece, why}.
local function plan_play(ctx, hand, pieces, t)
  local round = round_of(ctx)
  local counts = display.counts(ctx)
  if round == 6 and counts.FR <= counts.RU then
    -- Round 6: an issue taken off the Russian track to tie or to lead (L1294; already tied,
    -- it takes the lead).
    for _, piece in ipairs(pieces) do
      if display.track_of(ctx, piece) == "RU" then
        local card, pos = best_card_for(ctx, hand, piece, false, t)
        local fr = counts.FR + ((pos or 0) > 0 and 1 or 0)
        if card and pos >= 0 and fr >= counts.RU - 1 then
          return { card = card, piece = piece, why = string.format(
            "18.4.5.6, Round 6: %s off the Russian track (France %d, Russia %d after).",
            ctx.data.pieces[piece].name, fr, counts.RU - 1) }
        end
      end
    end
  end
  local ranked = {}
  for _, piece in ipairs(pieces) do
    local rank = priority_rank(ctx, piece)
    if rank <= #PRIORITY then
      ranked[#ranked + 1] = { piece = piece, rank = rank }
    end
  end
  table.sort(ranked, function(a, b)
    if a.rank ~= b.rank then
      return a.rank < b.rank
    end
    return a.piece < b.piece
  end)
  for _, entry in ipairs(ranked) do
    if display.track_of(ctx, entry.piece) ~= "FR" then
      local card, pos = best_card_for(ctx, hand, entry.piece, false, t)
      if card and pos > 0 then
        return { card = card, piece = entry.piece, why = string.format(
          "18.4.5.6: priority %d (%s) reaches %s, the furthest.", entry.rank, ctx.data.pieces[entry.piece].name,
          position_words(ctx, pos)) }
      end
    end
  end
  for _, entry in ipairs(ranked) do
    if display.track_of(ctx, entry.piece) == "FR" then
      local card, pos = best_card_for(ctx, hand, entry.piece, false, t)
      if card then
        return { card = card, piece = entry.piece, why = string.format(
          "18.4.5.6: no priority issue reaches the French track; the highest already on it, priority %d (%s), to %s.",
          entry.rank, ctx.data.pieces[entry.piece].name, position_words(ctx, pos)) }
      end
    end
  end
  if #pieces == 0 or #hand == 0 then
    return nil
  end
  local piece = pieces[ctx:random(#pieces, "18.4.5.7: none of the list; an issue at random")]
  local card, pos = best_card_for(ctx, hand, piece, false, t)
  if card == nil then
    card = hand[ctx:random(#hand, "18.4.5.7: no card's value is entered; a card at random")]
  end
  return { card = card, piece = piece, why = string.format("18.4.5.7: no priority issue qualifies; at random, %s%s.",
    ctx.data.pieces[piece].name, pos and (" to " .. position_words(ctx, pos)) or "") }
end

local PASS_TABLE = { 7, 6, 5, 4, 3, 1 }

function bot.round_turn(ctx, _, actions, t)
  local round = round_of(ctx)
  local trade = trade_to_offer(ctx, t)
  local offer = trade and named(actions, "trade", trade.to)
  if offer then
    return t:choose(offer, "18.4.5.4, %s: offer %s to %s.", trade.why, cards.name(ctx, trade.card),
      powers.name(ctx, trade.to))
  end
  local hand = non_military(ctx)
  local limit = PASS_TABLE[round] - (won_wager(ctx) and 1 or 0)
  local pass = named(actions, "pass")
  if pass and t:ask(string.format("18.4.5.5, Round %d: %d non-military cards <= %d%s?", round, #hand, limit,
    won_wager(ctx) and " (France won the Wager: -1)" or ""), #hand <= limit) then
    return t:choose(pass, "France passes.")
  end
  if pass and #hand == 0 then
    return t:choose(pass, "18.4.5.5: France passes rather than play a military card.")
  end
  local playable = flowchart.collect(actions, "negotiate", "card")
  local offered = util.filter(hand, function(card)
    return util.contains(playable, card)
  end)
  local pieces = {}
  for _, piece in ipairs(display.negotiable(ctx)) do
    pieces[#pieces + 1] = piece
  end
  local plan = #offered > 0 and plan_play(ctx, offered, pieces, t) or nil
  if plan then
    t:step(plan.why)
    local i = named(actions, "negotiate", plan.card)
    return t:choose(i, "%s.", actions[i].label)
  end
  -- Only military cards (or nothing) left and no pass: one of them at random (L1218),
  -- never NAPOLEON (a Leader, 18.4.5.6).
  local military = chart.indices(actions, "negotiate")
  if #military > 0 then
    local k = military[ctx:random(#military, "18.4.5.5: only military cards; one at random")]
    return t:choose(k, "Only military cards and France may not pass: %s.", actions[k].label)
  end
  local last = pass or named(actions, "trade") or 1
  return t:choose(last, "Nothing France would play: %s.", actions[last].label)
end

-- The issue for the card chosen above: the same plan, for that card.
function bot.negotiation(ctx, _, actions, t)
  local pieces = flowchart.collect(actions, "on", "piece")
  local plan = plan_play(ctx, { ctx.locals.card }, pieces, t)
  local i = plan and index_of(actions, function(a)
    return a.piece == plan.piece
  end)
  if i == nil then
    return t:choose(1, "No issue for %s in the plan: the first offered.", cards.name(ctx, ctx.locals.card))
  end
  return t:choose(i, "%s", plan.why)
end

-- 18.4.5.8: the debate table, by issue class and round.
local DEBATE_TABLE = {
  recruit_fr = { 6, 5, 4, 3, 2, 1 },
  lib_abs = { 7, 6, 5, 3, 2, 1 },
  minor_unit = { 8, 7, 6, 4, 2, 1 },
  sweden_at_war = { 8, 7, 6, 4, 2, 1 },
  mil_op_fr = { 8, 7, 6, 4, 2, 1 },
  fin_aid_br = { 9, 7, 6, 5, 3, 1 },
  other = { 11, 9, 7, 5, 3, 1 },
}

local ROW_NAMES = { recruit_fr = "French Recruitment", lib_abs = "Liberalism", minor_unit = "minor ally with a unit",
  sweden_at_war = "Sweden at War", mil_op_fr = "French Military Operation", fin_aid_br = "British Financial Aid",
  other = "all other issues" }

-- Whether France debates the play on `piece`, and with which card: {card, why} or nil.
local function debate_plan(ctx, piece, t)
  local kind = display.where(ctx, piece)
  local track = display.track_of(ctx, piece)
  if not (kind == "table" or (kind == "track" and track ~= "FR")) then
    t:step("18.4.5.8: %s is not on the Table or another power's track.", ctx.data.pieces[piece].name)
    return nil
  end
  local hand = non_military(ctx)
  local card, pos = best_card_for(ctx, hand, piece, true, t)
  if not t:ask(string.format("18.4.5.8: can a non-military card take %s to the French track or the Table?",
    ctx.data.pieces[piece].name), card ~= nil and pos >= 0) then
    return nil
  end
  local class = class_of(ctx, piece)
  local row = DEBATE_TABLE[class] and class or "other"
  if class == "minor" or class == "allied_mil_op" or class == "allied_recruitment" then
    row = "other"
  end
  local round = round_of(ctx)
  local need = DEBATE_TABLE[row][round] + ((row == "fin_aid_br" or row == "other") and won_wager(ctx) and 1 or 0)
  local printed = options.get(ctx, "lutzen_france.debate_table") == "as-printed"
  local ok = printed and #hand <= need or (not printed and #hand >= need)
  if not t:ask(string.format("18.4.5.8, Round %d, %s: %d non-military cards %s %d?", round, ROW_NAMES[row], #hand,
    printed and "<=" or ">=", need), ok) then
    return nil
  end
  return { card = card, why = string.format("Debate with %s: %s to %s.", cards.name(ctx, card),
    ctx.data.pieces[piece].name, position_words(ctx, pos)) }
end

-- A debate of another power's play, or France's pre-emptive debate: both follow the debate
-- table, with the card 18.4.5.6 would play.
local function debate_or_pass(ctx, _, actions, t, doing)
  local pass = named(actions, "pass")
  local plan = debate_plan(ctx, ctx.locals.piece, t)
  local i = plan and index_of(actions, function(a)
    return a.card == plan.card
  end)
  if i then
    return t:choose(i, "%s", plan.why)
  end
  return t:choose(pass or 1, "France does not %s.", doing)
end

bot.debate = playbook.with(debate_or_pass, "debate")
bot.preempt = playbook.with(debate_or_pass, "pre-empt")

-- A trade: the card France offers (18.4.5.4), or its answer to Russia's offer.
function bot.trade(ctx, _, actions, t)
  local locals = ctx.locals
  if locals.from == "FR" then
    local plan = trade_to_offer(ctx, t)
    local card = plan and plan.to == locals.to and plan.card
    local i = card and index_of(actions, function(a)
      return a.card == card
    end)
    if i then
      return t:choose(i, "18.4.5.4, %s: %s.", plan.why, cards.name(ctx, card))
    end
    card = trade_order(ctx, flowchart.collect(actions, "offer", "card"), "FR")[1]
    return t:choose(index_of(actions, function(a)
      return a.card == card
    end), "The lowest card France holds: %s.", cards.name(ctx, card))
  end
  local russian_only = options.get(ctx, "lutzen_france.trade_answer") == "russian-card"
  local list = {}
  for _, action in ipairs(actions) do
    local l = action.card and letter(ctx, action.card, "RU")
    if (l == "C" or l == "D") and (not russian_only or field(ctx, action.card, "nation") == "RU") then
      list[#list + 1] = action.card
    end
  end
  local refuse = named(actions, "refuse")
  if not t:ask(string.format("18.4.5.4: does France hold a card whose Russian (green) letter is C or D%s?",
    russian_only and ", a Russian card" or ""), locals.from == "RU" and #list > 0) then
    return t:choose(refuse, "France refuses.")
  end
  local card = trade_order(ctx, list, "RU")[1]
  return t:choose(index_of(actions, function(a)
    return a.card == card
  end), "France accepts, giving the lowest: %s.", cards.name(ctx, card))
end

-- A Leader's cost: the lowest card France can spare (never NAPOLEON's War Phase partner
-- BERTHIER when another will do).
function bot.leader_discard(ctx, _, actions, t)
  local card = trade_order(ctx, flowchart.collect(actions, "discard", "card"), "FR")[1]
  return t:choose(index_of(actions, function(a)
    return a.card == card
  end), "The lowest card: %s.", cards.name(ctx, card))
end

-- ---------------------------------------------------------------------------------------
-- Battles: withdrawals (18.4.7.6) and military cards (18.4.7.7).

local fronts_to_fight = botwar.fronts_to_fight

-- 18.4.7.7: France's military cards assigned to the fronts still to fight (bots/lib/war.lua):
-- every card to a front where it may be used (so that the sum of |DRM| is the largest),
-- NAPOLEON to the Grande Armée's battle and BERTHIER with him (synergy), the others one at a
-- time to the front with the fewest cards, at random among equals.
local function assign_cards(ctx, hand, fronts, laid_here, t)
  local tied = {}
  if options.get(ctx, "lutzen_france.synergy") == "napoleon-berthier" and util.contains(hand, "napoleon") then
    local where = {}
    for _, front in ipairs(fronts) do
      if battle.usable(ctx, "napoleon", { "FR" }, front) then
        where[#where + 1] = front
      end
    end
    local ga_front = forces.active(ctx, "block.grande_armee") and forces.front_of(ctx, "block.grande_armee") or nil
    local front = util.contains(where, ga_front) and ga_front or where[1]
    if front then
      t:step("Synergy: NAPOLEON to Front %s (the Grande Armée's battle when it has one).", front)
      if util.contains(hand, "berthier") and battle.usable(ctx, "berthier", { "FR" }, front) then
        t:step("Synergy: BERTHIER with NAPOLEON (the better of two rolls).")
      end
      tied[1] = { card = "napoleon", front = front, with = "berthier" }
    end
  end
  return botwar.assign_cards(ctx, hand, fronts, laid_here, { "FR" }, tied, "18.4.7.7: fronts with as many cards")
end

local function hand_military(ctx, seat)
  local laid = {}
  for _, entry in ipairs(ctx.private[seat].battle or {}) do
    laid[entry.card] = true
  end
  local boxes = french_boxes(ctx)
  local list = util.filter(ctx:zone("hand." .. seat), function(card)
    return not laid[card] and helps_in_war(ctx, card, boxes)
  end)
  return list, #(ctx.private[seat].battle or {})
end

function bot.battle_cards(ctx, seat, actions, t)
  local front = ctx.locals.front
  local hand, laid = hand_military(ctx, seat)
  local plan = assign_cards(ctx, hand, fronts_to_fight(ctx, front), laid, t)
  local mine = {}
  for card, to in pairs(plan) do
    if to == front then
      mine[#mine + 1] = card
    end
  end
  table.sort(mine)
  local names = {}
  for k, card in ipairs(mine) do
    names[k] = cards.name(ctx, card)
  end
  t:step("18.4.7.7: cards for Front %s: %s.", front, #mine > 0 and table.concat(names, ", ") or "none")
  for _, card in ipairs(mine) do
    local i = index_of(actions, function(a)
      return a.card == card and (a.arg.target == nil or a.arg.target == "own")
    end)
    if i then
      return t:choose(i, "Lay %s (DRM %+d).", cards.name(ctx, card), field(ctx, card, "drm") or 0)
    end
  end
  return t:choose(named(actions, "done"), "No more cards for this front.")
end

-- 18.4.7.6: France withdraws when the Allies' DRM advantage (without cards and dice)
-- reaches the table's row for the cards France would play (+3 for the Grande Armée).
local WITHDRAW = { { cards = 1, at = 3 }, { cards = 3, at = 5 }, { cards = math.huge, at = 7 } }

local function withdraw(ctx, actions, t)
  local state = ctx.vars.war.battle
  local _, allied, french = botwar.differential(ctx)
  local hand = hand_military(ctx, "FR")
  local plan = assign_cards(ctx, hand, fronts_to_fight(ctx, state.front), 0, t)
  local n = 0
  for _, to in pairs(plan) do
    n = n + (to == state.front and 1 or 0)
  end
  local row
  for _, entry in ipairs(WITHDRAW) do
    if n <= entry.cards then
      row = entry
      break
    end
  end
  local ga = util.contains(state.armies.FR, "block.grande_armee")
  local at = row.at + (ga and 3 or 0)
  local choice = t:ask(string.format("18.4.7.6: Allied DRM advantage %d - %d = %d >= %d (%d French cards%s)?", allied,
    french, allied - french, at, n, ga and ", the Grande Armée +3" or ""), allied - french >= at)
  local i = index_of(actions, function(a)
    return a.arg == choice
  end)
  return t:choose(i, choice and "France withdraws." or "France fights.")
end

-- The players' questions (rules/decide.lua), answered by their key.
local function first_option(ctx, actions, t)
  return t:choose(1, "18.4, no table for the decision %s: the first option.", tostring(ctx.locals.key))
end

bot.decide = decide.answers({
  withdraw = withdraw,
  bonus = playbook.liberalism_bonus(
    "18.4, no table for a card's Liberalism or Pax bonus: Liberalism (18.4.5.7 ranks it second).", first_option),
}, first_option)

-- The card-driven solo method's play (19.3), when France's cards come from its display:
-- step 3 saves the offered possibly usable military card with the largest |DRM| (the bot
-- always saves one when it may: RULES-GAPS.md); step 4 plays the card 18.4.5.6 would.
function bot.cdgsm_play(ctx, _, actions, t)
  if named(actions, "save_none") then
    return botwar.save(ctx, actions, t)
  end
  local offered = {}
  local boxes = french_boxes(ctx)
  for _, card in ipairs(flowchart.collect(actions, "play", "card")) do
    if not helps_in_war(ctx, card, boxes) then
      offered[#offered + 1] = card
    end
  end
  local plan = #offered > 0 and plan_play(ctx, offered, display.negotiable(ctx), t) or nil
  if plan then
    t:step(plan.why)
    return t:choose(index_of(actions, function(a)
      return a.card == plan.card
    end), "19.3, step 4: play %s.", cards.name(ctx, plan.card))
  end
  return t:choose(1, "19.3, step 4: no non-military card with a plan: %s.", actions[1].label)
end

-- Battle losses: 18.4 has no rule; the bot takes them from the largest French box, so that
-- no army is emptied while another has units to spare.
bot.battle_losses = botwar.losses_by_size("18.4, no table for losses: from the largest box (%s units), %s.")

-- The Victory Point Summary's other items are entered by the players: the bot confirms.
function bot.vp_summary(_, _, actions, t)
  return t:choose(named(actions, "done"), "The bot adds nothing to the Victory Point Summary.")
end

return function(ctx, seat, actions)
  return flowchart.by_state(bot, ctx, seat, actions, "18.4, no table for state %s: the first action.")
end
