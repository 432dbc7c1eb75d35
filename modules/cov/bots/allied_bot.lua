-- Congress of Vienna: the Allied bot of Playbook section 20 (L1488-L1751), which plays
-- Russia, Britain and Austria from the Coalition's one display against a person playing
-- France (seating solo-vs-allied-bot), and two of them beside a person's Allied power
-- (solo-allied-power, 22). Its chart is module data (data/bot_charts.ron, the tables
-- allied_*): the owner copies each row once from the printed Allied Bot chart, as one of the
-- words of VOCABULARY below (each table's doc gives their meanings); a row not entered yet
-- is asked at the table the first time the bot reaches it. The text's own rules are code
-- here: Step 2's demobilisation thresholds (L1513-L1515), Step 6's pass (L1571-L1573), the
-- choice of debater (20.7, L1595-L1597), M of 20.7.b (L1617), Step 17's "never withdraw"
-- (L1705), the IBD and its stop (L1711-L1717) and Step 19's losses (L1721-L1723); and 22's
-- low priority issues (L1992). Every reason begins with the chart's step or table ("20.4,
-- Britain's row 2: …"), and the numbers that decided it are explained sums. Step 1 is rolled by the
-- rules (rules/initial.lua); Steps 3 and 5a are the rules' (rules/solitaire.lua,
-- rules/diplomacy.lua), and so is 22's neutral card to a random front (rules/battle.lua).

local flowchart = include("@lib/flowchart.lua")
local util = include("@lib/util.lua")
local powers = include("rules/powers.lua")
local forces = include("rules/forces.lua")
local display = include("rules/display.lua")
local cards = include("rules/cards.lua")
local solo = include("rules/cdgsm_display.lua")
local restrictions = include("rules/restrictions.lua")
local solitaire = include("rules/solitaire.lua")
local decide = include("rules/decide.lua")
local options = include("rules/options.lua")
local trade = include("bots/lib/trade.lua")
local libissues = include("bots/lib/issues.lua")
local reach = include("bots/lib/track.lua")
local botwar = include("bots/lib/war.lua")
local conditions = include("bots/lib/conditions.lua")
local chart = include("bots/lib/chart.lua")
local playbook = include("bots/lib/playbook.lua")

local bot = {}

-- The words a row of each chart table may hold: the tables' OneOf lists name exactly these
-- (a test checks it); "none" marks a row past the printed chart's end.
local VOCABULARY = {
  allied_wager = { "highest_own", "highest_non_military", "highest", "lowest", "none" },
  allied_negotiate = { "leader", "bonus", "highest_priority", "priority", "negotiate", "none" },
  allied_trade_answer = { "refuse", "accept", "none" },
  allied_french_ops = { "fewest_units", "allied_advantage", "war_of_1812", "none" },
  allied_ops = { "persian_war", "war_of_1812", "battle_advantage", "most_units", "none" },
  allied_supports = { "battle_fronts", "war_of_1812", "most_units", "none" },
  allied_strategic = { "reserve_to_battles", "reserve_fewest", "idle_to_battles", "none" },
  allied_cards = { "front_only", "largest", "none" },
  allied_debate_steps = { "leader_if_napoleon", "debater", "restrictions", "debate_or_not", "fate_die_and_save", "bonus_card", "table_requirement", "farthest_card", "ask", "none" },
  allied_spending = { "mandatory", "own_recruitment", "generalissimo", "future_government", "military_support", "minors", "sound", "ask", "none" },
}

local ROUNDS = 6
local ALLIED = { "RU", "BR", "AU" }
local LEADERS = { RU = "alexander", AU = "metternich", BR = "castlereagh" }

local rows, filter, extreme, value_of = chart.rows, chart.filter, chart.extreme, chart.value_of

local index_of, named = flowchart.first, chart.named

local field, issue_name, war_status, round_of, play_index = chart.field, chart.issue_name, chart.war_status,
  chart.round_of, chart.play_index

local name = powers.name

local function power_of(ctx, seat)
  return ctx.locals.power or seat
end

local function holds(ctx, id, power, piece, t)
  return chart.holds(ctx, id, power, piece, t, "allied_bot.undecided")
end

-- ---------------------------------------------------------------------------------------
-- Tables 20.4.a-c: each Allied power's priority issues.

local MINOR_WORDS = { minor_unit = "a minor ally that gives the power a unit", minor_vp = "a minor ally that gives only VP",
  minor_ally = "a minor ally (one that gives a unit, else one that gives VP)" }

local bonus_issue = libissues.bonus_issue

-- Each power's rows of Table 20.4, read once a game (the table is data, which never changes
-- in a VM): every issue's rank reads them.
local priority_rows_of = {}

-- `power`'s rows of Table 20.4 in order: each {key, issue}. Callers only read the list.
local function priority_rows(ctx, power)
  local list = priority_rows_of[power]
  if list == nil then
    list = {}
    for key, issue in rows(ctx, "allied_priority_issue", power .. "/") do
      list[#list + 1] = { key = key, issue = issue, step = chart.row(ctx, "allied_priority_issue", key) }
    end
    priority_rows_of[power] = list
  end
  return list
end

-- The rank of `piece` for `power` in Table 20.4 (its first row naming it whose condition
-- holds) and the row's key, or nil; conditions the module cannot decide count as holding
-- here (an order, not a choice).
local function priority_rank(ctx, power, piece)
  for rank, row in ipairs(priority_rows(ctx, power)) do
    if libissues.row_names(ctx, row.issue, piece, power) then
      local cond = ctx.data.tables.allied_priority_condition[row.key]
      if conditions.holds(ctx, cond, power, piece) ~= false then
        return rank, row.key
      end
    end
  end
  return nil
end

-- The issue's class for `power` (20.4, L1555; 20.7.b): "highest" (a HIGHEST PRIORITY
-- row), "priority" (another row of its Table 20.4), "other".
local function priority_class(ctx, power, piece)
  local rank, key = priority_rank(ctx, power, piece)
  if rank == nil then
    return "other"
  end
  return ctx.data.tables.allied_priority_highest[key] and "highest" or "priority", rank, key
end

-- Step 5 (20.4): the first row of the power's Table 20.4 whose condition holds and whose
-- issue is offered (HIGHEST PRIORITY plays no part here, L1555); a minor ally at random
-- among equals; no row, at random (L1559).
local function select_issue(ctx, seat, actions, t, what)
  local power = power_of(ctx, seat)
  return playbook.select_issue(ctx, actions, t, what, {
    rows = priority_rows(ctx, power), condition = "allied_priority_condition", power = power,
    holds = function(cond, piece)
      return holds(ctx, cond, power, piece, t)
    end,
    minor_words = MINOR_WORDS, table = "20.4", equal = "equal minor allies, at random (20.4)",
  })
end

bot.free_issue = playbook.with(select_issue, "the free issue")
bot.selection = playbook.with(select_issue, "the issue")

-- ---------------------------------------------------------------------------------------
-- Step 2: British Fleet Demobilization (20.1.2, L1509-L1515).

-- Whether the War of 1812 is over (L1513 does not say how it is known; RULES-GAPS.md): no
-- American unit is left in the War of 1812 box to fight it.
local function war_of_1812_over(ctx)
  return (ctx:box(forces.W1812).US or 0) == 0
end

local function fleets_on_map(ctx)
  local n = 0
  for _, box in ipairs(ctx.data.box_ids) do
    if box ~= "pool.BR" then
      n = n + (ctx:box(box).BR_fleet or 0)
    end
  end
  return n
end

-- The threshold Step 2 reads this turn: more than 3 fleets once the War of 1812 is over,
-- else more than 5 on even turns and more than 6 on odd ones.
local function demobilization_threshold(ctx)
  if war_of_1812_over(ctx) then
    return 3, "the War of 1812 is over"
  elseif ctx:turn() % 2 == 0 then
    return 5, string.format("turn %d is even", ctx:turn())
  end
  return 6, string.format("turn %d is odd", ctx:turn())
end

function bot.demobilization(ctx, _, actions, t)
  local limit, why = demobilization_threshold(ctx)
  local fleets = fleets_on_map(ctx)
  local done = ctx.vars.turn_demobilized == ctx:turn()
  local keep = named(actions, "keep") or 1
  if fleets <= limit then
    return t:choose(keep, "20.1.2, Step 2: %s, so Britain trades when it has more than %d fleets on the map; it has %d: it keeps them.",
      why, limit, fleets)
  end
  if done and options.get(ctx, "allied_bot.demobilize") == "once" then
    return t:choose(keep, "20.1.2, Step 2: Britain has traded two fleets this turn (as the game is set up: %s).",
      options.words(ctx, "allied_bot.demobilize"))
  end
  -- Two fleets from the boxes that hold the most (the pair the rules offer first among them).
  local i = chart.best_action(actions, "demobilize", function(a)
    if a.arg.reward ~= "VP" then
      return nil
    end
    return (ctx:box(a.arg.from[1]).BR_fleet or 0) + (ctx:box(a.arg.from[2]).BR_fleet or 0)
  end, 1)
  if i == nil then
    return t:choose(keep, "20.1.2, Step 2: no two fleets can be demobilized.")
  end
  return t:choose(i, "20.1.2, Step 2: %s and Britain has %d fleets on the map, more than %d: %s.", why, fleets, limit,
    actions[i].label)
end

-- The Clash of Armies' Austria at War (17.3.3), which the chart does not cover: on Austria's
-- track when it is one of Austria's Table 20.4 issues, else the VP (best judgment, L1490).
function bot.clash(ctx, _, actions, t)
  local piece = actions[1].piece
  local rank = piece and priority_rank(ctx, "AU", piece)
  if rank then
    return t:choose(named(actions, "track") or 1,
      "20 (best judgment): Austria at War is Austria's Table 20.4 issue of rank %d: it stays on Austria 1.", rank)
  end
  return t:choose(named(actions, "table") or 1,
    "20 (best judgment): Austria at War is none of Austria's Table 20.4 issues: the Negotiation Table and 1 VP.")
end

-- A step of a printed card done by hand (a bot-only game has no hands: it goes on).
function bot.checklist(_, _, actions, t)
  return t:choose(named(actions, "done") or 1, "20 (best judgment): a step the players do by hand; no person plays, so the game goes on.")
end

-- ---------------------------------------------------------------------------------------
-- Step 4: the Wager card (20.3), applied for Britain, Russia and Austria in turn.

local function pumc(ctx, power, card)
  return solo.pumc(ctx, power, card)
end

local function wager_card(ctx, power, actions, t)
  local words = playbook.wager_rows(power, "equal Wager cards (20.3, Step 4)", {
    highest_own = { words = "the highest card of the wagering power's own nation", pick = function(ctx, list)
      return extreme(ctx, filter(list, function(c)
        return cards.nation(ctx, c) == power
      end), 1, "equal Wager cards (20.3, Step 4)")
    end },
  })
  return playbook.wager_card(ctx, actions, t, "allied_wager", words, "20.3, Step 4",
    string.format("for %s, ", name(ctx, power)))
end

-- ---------------------------------------------------------------------------------------
-- Steps 6 and 7: an Allied power's rounds (20.5).

-- The best negotiation for `power` among `hand` and `pieces` whose class `keep` accepts
-- (nil: any): {card, piece, gain, pos, rank}; a play that gains nothing is none.
local function best_negotiation(ctx, power, hand, pieces, keep)
  local ranks, classes = {}, {}
  for _, piece in ipairs(pieces) do
    classes[piece], ranks[piece] = priority_class(ctx, power, piece)
    ranks[piece] = ranks[piece] or 99
  end
  local best
  for _, card in ipairs(hand) do
    local value = value_of(ctx, card)
    for _, piece in ipairs(pieces) do
      if keep == nil or keep(classes[piece]) then
        local g, pos = reach.gain(ctx, card, piece, power, false)
        local this = g and g > 0 and { card = card, piece = piece, gain = g, pos = pos, rank = ranks[piece], value = value }
        if this and (best == nil or chart.before(this, best)) then
          best = this
        end
      end
    end
  end
  return best
end

local function negotiation_words(ctx, power, plan)
  return playbook.negotiation_words(ctx, power, plan, "20.4")
end

-- Table 20.5.2: the power's Leader's row that applies, if any: {key, piece}.
local function leader_plan(ctx, power, pieces, t)
  return playbook.leader_plan(ctx, t, pieces, {
    issues = "allied_leader_issue", prefix = LEADERS[power] .. "/", condition = "allied_leader_condition", power = power,
    holds = function(cond)
      return holds(ctx, cond, power, nil, t)
    end,
    label = function(key)
      return chart.row(ctx, "allied_leader_condition", key)
    end,
    minor_words = MINOR_WORDS,
  })
end

-- The Allied negotiations remaining, this one included (20.5.1 (a) and (b), L1571-L1573):
-- the rounds left to every Allied power that has not passed out (option
-- allied_bot.remaining: or this power's alone).
local function negotiations_remaining(ctx, power)
  local left = ROUNDS - round_of(ctx) + 1
  if options.get(ctx, "allied_bot.remaining") == "this-power" then
    return left
  end
  local n = 0
  for _, p in ipairs(powers.allied(ctx)) do
    if not powers.passive(ctx, p) then
      n = n + left
    end
  end
  return n
end

-- The face-up cards of the Coalition's display that are no possibly usable military card.
local function face_up_non_pumc(ctx, power)
  return #filter(solo.face_up(ctx, "allies"), function(option)
    return not pumc(ctx, power, option.card)
  end)
end

-- Step 6 (20.5.1): a power passes when it debated since it last negotiated (the rules offer
-- the pass then) and (a) the Military pile has gone to the draw pile and fewer face-up
-- non-PUMC cards lie on the display than Allied negotiations remain, or (b) it is Round 4-6
-- and the draw pile holds fewer cards than Allied negotiations remain.
local function step6_pass(ctx, power, actions, t)
  local pass = named(actions, "pass")
  if pass == nil then
    return nil
  end
  if #actions == 1 then
    return pass, string.format("20.5.1, Step 6: %s has nothing to play: it passes.", name(ctx, power))
  end
  local remaining = negotiations_remaining(ctx, power)
  local transferred = solo.transferred(ctx, "allies")
  local up = face_up_non_pumc(ctx, power)
  if transferred and up < remaining then
    return pass, string.format(
      "20.5.1, Step 6 (a): the Military pile has gone to the draw pile and %d face-up non-PUMC card%s lie on the display, fewer than the %d Allied negotiations remaining: %s passes.",
      up, up == 1 and "" or "s", remaining, name(ctx, power))
  end
  local pile = solo.pile_size(ctx, "allies")
  if round_of(ctx) >= 4 and pile < remaining then
    return pass, string.format(
      "20.5.1, Step 6 (b): Round %d, and the draw pile holds %d card%s, fewer than the %d Allied negotiations remaining: %s passes.",
      round_of(ctx), pile, pile == 1 and "" or "s", remaining, name(ctx, power))
  end
  t:step("20.5.1, Step 6: %s does not pass (Military pile %s, %d face-up non-PUMC cards, draw pile %d, %d Allied negotiations remaining).",
    name(ctx, power), transferred and "transferred" or "active", up, pile, remaining)
  return nil
end

local NEGOTIATE = {
  highest_priority = { words = "a HIGHEST PRIORITY issue of the power's Table 20.4", keep = function(class)
    return class == "highest"
  end },
  priority = { words = "an issue of the power's Table 20.4", keep = function(class)
    return class ~= "other"
  end },
  negotiate = { words = "the issue the card takes farthest toward the power" },
}

-- Table 20.5 read for the cards the fate die made available: {key, what, card, piece, ...}.
local function round_plan(ctx, power, available, pieces, t)
  for key, word in rows(ctx, "allied_negotiate") do
    if word == "leader" then
      t:step("20.5, step %s: the Leader was weighed before the fate die (Table 20.5.2).", key)
    elseif word == "bonus" then
      local plan = playbook.bonus_plan(ctx, t, "20.5, step", key, power, available, pieces)
      if plan then
        return plan
      end
    else
      local plan = #pieces > 0 and best_negotiation(ctx, power, available, pieces, NEGOTIATE[word].keep) or nil
      if plan then
        plan.key, plan.what, plan.words = key, word, NEGOTIATE[word].words
        return plan
      end
      t:step("20.5, step %s: %s: no card gains a space on it.", key, NEGOTIATE[word].words)
    end
  end
  return nil
end

local function plan_words(ctx, power, plan)
  if plan.what == "bonus" then
    return string.format("20.5, step %s: %s collects its bonus on %s.", plan.key, cards.name(ctx, plan.card),
      issue_name(ctx, plan.piece))
  end
  return string.format("20.5, step %s: %s: %s.", plan.key, plan.words, negotiation_words(ctx, power, plan))
end

function bot.round_turn(ctx, seat, actions, t)
  local power = power_of(ctx, seat)
  local drawn = ctx.locals.drawn
  local pieces = display.negotiable(ctx)
  if drawn then
    local plan = round_plan(ctx, power, { drawn }, pieces, t)
    local i = named(actions, "negotiate") or 1
    if plan then
      return t:choose(i, "%s", plan_words(ctx, power, plan))
    end
    return t:choose(i, "After the last row of 20.5: %s.", actions[i].label)
  end
  local pass, why = step6_pass(ctx, power, actions, t)
  if pass then
    return t:choose(pass, why)
  end
  for key, word in rows(ctx, "allied_negotiate") do
    if word ~= "leader" then
      break
    end
    local leader = named(actions, "leader", LEADERS[power])
    local plan = leader and leader_plan(ctx, power, pieces, t)
    if plan then
      local row = chart.row(ctx, "allied_leader_condition", plan.key)
      t:step("%s: its condition holds, and %s can be negotiated.", row, issue_name(ctx, plan.piece))
      return t:choose(leader, "20.5, step %s: Table %s: play %s on %s.", key, row,
        cards.name(ctx, LEADERS[power]), issue_name(ctx, plan.piece))
    end
    t:step("20.5, step %s: %s.", key, leader and "no row of Table 20.5.2 applies" or "the power's Leader is not beside the display")
  end
  -- The Allies never start a trade (20.6): the fate die gives the card to negotiate with.
  local i = named(actions, "draw") or named(actions, "negotiate") or named(actions, "pass") or 1
  return t:choose(i, "20.5.2, Step 7: %s (the Allies never start a trade, 20.6).", actions[i].label)
end

-- The issue for the card an Allied power plays: its Leader's from Table 20.5.2; a card
-- collecting its bonus, that issue; otherwise the best negotiation.
function bot.negotiation(ctx, seat, actions, t)
  local power = power_of(ctx, seat)
  local pieces, card, on = flowchart.collect(actions, "on", "piece"), ctx.locals.card, playbook.on(actions)
  if ctx.locals.leader then
    local plan = leader_plan(ctx, power, pieces, t)
    if plan then
      return t:choose(on(plan.piece), "%s: %s takes %s to %s Seat.", chart.row(ctx, "allied_leader_condition", plan.key), cards.name(ctx, card),
        issue_name(ctx, plan.piece), powers.possessive(name(ctx, power)))
    end
  end
  local piece = bonus_issue(ctx, card, power, pieces)
  if piece then
    return t:choose(on(piece), "20.5: %s collects its bonus on %s.", cards.name(ctx, card), issue_name(ctx, piece))
  end
  local plan = best_negotiation(ctx, power, { card }, pieces)
  if plan then
    return t:choose(on(plan.piece), "20.5: negotiate: %s.", negotiation_words(ctx, power, plan))
  end
  local best = playbook.first_ranked(pieces, function(p)
    return priority_rank(ctx, power, p)
  end)
  return t:choose(on(best) or 1, "20.5: no play gains a space; the first issue of Table 20.4 offered: %s.",
    best and issue_name(ctx, best) or actions[1].label)
end

-- ---------------------------------------------------------------------------------------
-- Step 9: debates (20.7).

-- The Allied powers that may debate `player`'s play on `piece`: not the player, not out of
-- the phase, allowed by the restrictions (20.8), a bot's (in 22 the person debates for
-- their own power), with a Leader for a Leader's debate.
local function may_debate(ctx, power, player, piece, leader)
  if power == player or powers.passive(ctx, power) or not util.contains(powers.allied(ctx), power) then
    return false
  end
  if restrictions.debate(ctx, power, player) or restrictions.issue(ctx, power, piece, "debate") then
    return false
  end
  return not leader or #solo.leaders(ctx, power) > 0
end

-- The order in which equal priorities go (20.7, L1597: "Russia, Britain, and Austria"; the
-- example, L1611: clockwise from the power that negotiated; option allied_bot.debater_order).
local function debater_order(ctx, player)
  if options.get(ctx, "allied_bot.debater_order") == "from-negotiator" then
    return powers.from_left_of(ctx, player, function(p)
      return p ~= "FR"
    end)
  end
  return ALLIED
end

-- 20.7's step 2: the Allied power the bot debates with, the one for which the issue has the
-- highest priority in Table 20.4, ties in the clockwise order; and the words of the choice.
local function chosen_debater(ctx, player, piece, leader)
  local best, best_rank, seen = nil, nil, {}
  for _, power in ipairs(debater_order(ctx, player)) do
    if may_debate(ctx, power, player, piece, leader) and solitaire.bot_power(ctx, power) then
      local rank = priority_rank(ctx, power, piece) or 99
      seen[#seen + 1] = string.format("%s %s", name(ctx, power), rank < 99 and ("rank " .. rank) or "no rank")
      if best_rank == nil or rank < best_rank then
        best, best_rank = power, rank
      end
    end
  end
  return best, table.concat(seen, ", ")
end

-- Whether a roll debates against M (option solitaire.debate_roll: below M as printed for
-- the Allied bot).
local function roll_debates(ctx, roll, m)
  if options.get(ctx, "solitaire.debate_roll") == "at-most" then
    return roll <= m, "at most"
  end
  return roll < m, "below"
end

-- Table 20.7.a's steps 1-4 for `power`: "debate", "roll" (the die is to be rolled) or nil.
local function debate_decision(ctx, power, t)
  local locals = ctx.locals
  local piece, player = locals.piece, locals.player
  for key, word in rows(ctx, "allied_debate_steps") do
    local step = string.format("20.7.a, step %s", key)
    if word == "leader_if_napoleon" then
      if locals.leader then
        if not holds(ctx, "napoleon_negotiated", power, piece, t) then
          t:step("%s: a Leader debates only NAPOLEON's play.", step)
          return nil
        end
        t:step("%s: NAPOLEON negotiated %s: an Allied Leader debates it.", step, issue_name(ctx, piece))
      else
        t:step("%s: no Leader negotiated.", step)
      end
    elseif word == "debater" then
      local chosen, ranks = chosen_debater(ctx, player, piece, locals.leader)
      if chosen ~= power then
        t:step("%s: %s debates for the Allies, not %s (%s; ties %s).", step, chosen and name(ctx, chosen) or "nobody",
          name(ctx, power), ranks, options.get(ctx, "allied_bot.debater_order") == "fixed" and "Russia, Britain, Austria"
            or "clockwise from the negotiator")
        return nil
      end
      t:step("%s: %s debates (%s).", step, name(ctx, power), ranks)
      if player ~= "FR" and ctx.vars.seating == "solo-allied-power" and options.get(ctx, "allied_bot.low_priority") == "skip"
        and priority_class(ctx, power, piece) == "other" then
        t:step("22.1: %s is a low priority issue for %s, negotiated by another Allied power: no debate.",
          issue_name(ctx, piece), name(ctx, power))
        return nil
      end
    elseif word == "restrictions" then
      t:step("%s: the restrictions of 20.8 allow %s to debate %s.", step, name(ctx, power), issue_name(ctx, piece))
    elseif word == "debate_or_not" then
      if locals.leader then
        return "debate"
      end
      local class, _, key = priority_class(ctx, power, piece)
      -- The debater's row counts only when its condition holds (20.8's example: Britain's
      -- Liberalism row, when advancing the pawn would let Pax Britannica advance).
      local cond = key and ctx.data.tables.allied_priority_condition[key]
      if cond and not holds(ctx, cond, power, piece, t) then
        t:step("%s: its condition does not hold (%s): %s is no priority issue for %s now.", chart.row(ctx, "allied_priority_issue", key),
          conditions.words(cond), issue_name(ctx, piece), name(ctx, power))
        class = "other"
      elseif cond and conditions.must_debate(cond) and options.get(ctx, "allied_bot.must_debate") == "debate" then
        t:step("%s: %s: its condition holds, so %s must debate (20.8's example, L1645; Table 20.7.b is not read).",
          step, chart.row(ctx, "allied_priority_issue", key), name(ctx, power))
        return "debate"
      end
      t:step("%s: Table 20.7.b decides.", step)
      local pile = solo.transferred(ctx, "allies") and "transferred" or "active"
      local decision, rolled = playbook.debate_cell(ctx, t, "allied_debate", class .. "/" .. round_of(ctx) .. "/" .. pile,
        piece, power, "", name(ctx, power), roll_debates)
      -- A debate the die allows goes on to the chart's next steps.
      if decision ~= "debate" or not rolled then
        return decision
      end
    elseif word == "ask" then
      if not holds(ctx, "ask", power, piece, t) then
        t:step("%s: the printed step stops the debate.", step)
        return nil
      end
    else
      -- Steps 5-8 (the fate die, the save, the card) come once the debate is declared.
      t:step("%s: %s declares the debate; the fate die and the card follow.", step, name(ctx, power))
      return "debate"
    end
  end
  return "debate"
end

function bot.debate(ctx, seat, actions, t)
  -- In the solitaire seatings each Allied power has its own seat, asked alone.
  local power = seat
  local decision = debate_decision(ctx, power, t)
  local roll = index_of(actions, function(a)
    return a.name == "chart_roll" and a.arg.power == power
  end)
  return playbook.declare(actions, t, decision, roll, "debate", power, {
    roll = string.format("20.7.b: %s rolls its debate die.", name(ctx, power)),
    act = string.format("20.7.a: %s debates%s.", name(ctx, power),
      ctx.locals.leader and " with its Leader" or "; the fate die gives its card"),
    pass = string.format("20.7.a: %s does not debate.", name(ctx, power)),
  })
end

-- Steps 6-8 of Table 20.7.a: the card the debater plays from what the fate die made
-- available: one that collects its bonus, else (no requirement to move the issue to the
-- Negotiation Table being known) the non-military card that moves the issue farthest.
local function debate_card(ctx, power, piece, offered, t)
  local non_military = filter(offered, function(c)
    return field(ctx, c, "military") ~= true
  end)
  local list = #non_military > 0 and non_military or offered
  for key, word in rows(ctx, "allied_debate_steps") do
    local step = string.format("20.7.a, step %s", key)
    if word == "bonus_card" then
      for _, card in ipairs(offered) do
        if bonus_issue(ctx, card, power, { piece }) then
          return card, string.format("%s: %s collects its bonus on %s", step, cards.name(ctx, card), issue_name(ctx, piece))
        end
      end
      t:step("%s: no available card collects its bonus on %s.", step, issue_name(ctx, piece))
    elseif word == "table_requirement" then
      -- The chart's requirement is not in the text; 20.7's example meets none (L1633).
      t:step("%s: no requirement to move %s to the Negotiation Table (none is known to the module).", step,
        issue_name(ctx, piece))
    elseif word == "farthest_card" then
      local card, pos = playbook.farthest_card(ctx, list, piece, power, "equal debate cards (20.7.a)")
      if card then
        return card, string.format("%s: %s takes %s farthest, to %s", step, cards.name(ctx, card), issue_name(ctx, piece),
          reach.words(ctx, power, pos))
      end
    end
  end
  return nil
end

-- ---------------------------------------------------------------------------------------
-- The card-driven solo method (19.3): the card an Allied power plays from the display.

function bot.cdgsm_play(ctx, seat, actions, t)
  local locals = ctx.locals
  local power = locals.power or seat
  local function round(offered)
    local plan = round_plan(ctx, power, offered, display.negotiable(ctx), t)
    if plan then
      return t:choose(play_index(actions, plan.card), "%s", plan_words(ctx, power, plan))
    end
    local card = extreme(ctx, offered, -1, "equal cards (20.5)")
    return t:choose(play_index(actions, card), "After the last row of 20.5: no card gains a space; the lowest, %s.",
      cards.name(ctx, card))
  end
  return playbook.cdgsm_play(ctx, actions, t, {
    wager = function()
      return wager_card(ctx, power, actions, t)
    end,
    round = round,
    negotiate = round,
    trade = function(offered)
      -- The card given to France: the one France can use least, by France's letters.
      local card = trade.order(ctx, offered, "FR", power)[1]
      return t:choose(play_index(actions, card), "20.6, Step 8: give France %s (French letter %s: the least use to it).",
        cards.name(ctx, card), cards.known_letter(ctx, card, "FR") or "?")
    end,
    debate = function(offered)
      local card, why = debate_card(ctx, power, locals.piece, offered, t)
      if card then
        return t:choose(play_index(actions, card), "%s.", why)
      end
      return t:choose(1, "20.7.a: no card's values entered to weigh the debate: %s.", actions[1].label)
    end,
    -- A Leader's cost (the discard): the card the power needs least, by its letters.
    cost = function(offered)
      local card = playbook.least_needed(ctx, offered, power)
      return t:choose(play_index(actions, card), "20.5.2: the Leader's cost, the card %s needs least: %s.",
        name(ctx, power), cards.name(ctx, card))
    end,
  })
end

-- ---------------------------------------------------------------------------------------
-- Steps 11 and 12: Government spending and the National Reserve (20.9).

-- Whether `power` fights a battle this turn (20.9, 2d): in the Government Phase, it has won
-- and funded its own Military Operation (20.9's example: Austria's).
local function fights(ctx, power)
  local kind = "mil_op_" .. power:lower()
  for id, by in pairs((ctx.vars.government or {}).funded or {}) do
    if by == power and ctx.data.pieces[id].props.issue == kind then
      return true
    end
  end
  return false
end

-- The Future Government of France's boxes in their printed order (the Emperor first): the
-- Allies' position improves away from the Emperor (20.9's example: from the Regency to No
-- Agreement, L1669).
local function government_rank(ctx, space)
  for i, entry in ipairs(ctx.data.places.future_government.spaces) do
    if entry.id == space then
      return i
    end
  end
  return 0
end

-- The box one step farther from the Emperor than the pawn, if there is one.
local function better_government(ctx)
  local _, at = ctx:space_of("pawn.future_government")
  local best
  for _, space in ipairs(ctx:neighbors("future_government", at)) do
    if government_rank(ctx, space) > government_rank(ctx, at) and (best == nil
      or government_rank(ctx, space) > government_rank(ctx, best)) then
      best = space
    end
  end
  return best
end

local SPENDING = {
  mandatory = { words = "the mandatory issues (the rules pay them first)", pick = function()
    return nil
  end },
  own_recruitment = { words = "the power's own Recruitment", pick = function(ctx, actions, power)
    return named(actions, "fund", "issue.recruit_" .. power:lower())
  end },
  generalissimo = { words = "the Generalissimo", pick = function(ctx, actions)
    return index_of(actions, function(a)
      return a.name == "fund" and ctx.data.pieces[a.arg].props.issue == "generalissimo"
    end)
  end },
  future_government = { words = "the Future Government of France, if its position can improve", pick = function(ctx, actions)
    return better_government(ctx) and index_of(actions, function(a)
      return a.name == "fund" and ctx.data.pieces[a.arg].props.issue == "future_government"
    end) or nil
  end },
  military_support = { words = "a Military Support marker, the power fighting a battle", pick = function(ctx, actions, power)
    return fights(ctx, power) and named(actions, "support") or nil
  end },
  minors = { words = "a minor country (one that gives a unit first)", pick = function(ctx, actions, power)
    local i = index_of(actions, function(a)
      return a.name == "fund" and libissues.MINORS[ctx.data.pieces[a.arg].props.issue]
        and libissues.gives_units(ctx, a.arg, power)
    end)
    return i or index_of(actions, function(a)
      return a.name == "fund" and libissues.MINORS[ctx.data.pieces[a.arg].props.issue]
    end)
  end },
  sound = { words = "Sound Government (1 VP a Resource)", pick = function(_, actions)
    return named(actions, "sound")
  end },
  ask = { words = "the printed row, for the players to apply by hand", pick = function()
    return nil
  end },
}

function bot.spend(ctx, seat, actions, t)
  local power = power_of(ctx, seat)
  for key, word in chart.printed_rows(ctx, "allied_spending") do
    local i = SPENDING[word].pick(ctx, actions, power)
    if i then
      return t:choose(i, "20.9, Step 11, %s: %s: %s.", key, SPENDING[word].words, actions[i].label)
    end
    t:step("20.9, Step 11, %s: %s: none.", key, SPENDING[word].words)
  end
  return t:choose(named(actions, "done") or 1, "After the last row of 20.9, Step 11: %s spends no more (what is left is lost).",
    name(ctx, power))
end

function bot.new_units(ctx, seat, actions, t)
  local power = power_of(ctx, seat)
  local keep = named(actions, "keep")
  if keep then
    return t:choose(keep, "20.9, Step 12: %s keeps this turn's new units in its National Reserve, placed in strategic movement.",
      name(ctx, power))
  end
  return t:choose(1, "20.9, Step 12: %s.", actions[1].label)
end

-- ---------------------------------------------------------------------------------------
-- Steps 13-16: the War Phase's placements and moves (20.10).

local FRENCH_OPS = {
  fewest_units = playbook.fewest_row("with the French army that has the fewest units"),
  allied_advantage = playbook.outnumber_row("with the French army where the Allies outnumber France the most", "allied"),
  war_of_1812 = playbook.W1812_ROW,
}

local ALLIED_OPS = playbook.merged(playbook.ALLIED_OP_ROWS, {
  battle_advantage = playbook.outnumber_row(
    "with the power's army, without an operation yet, where the Allies outnumber France the most (if they do)", "allied", true),
  most_units = { words = "with the power's army that has the most units", pick = function(ctx, actions)
    return chart.best_action(actions, "place", function(a)
      return a.piece and forces.units(ctx, forces.box(a.piece)) or nil
    end, 1)
  end },
})

bot.place_ops = playbook.place_ops({ id = "allied_ops", words = ALLIED_OPS, step = "20.10.2, Step 14" },
  { id = "allied_french_ops", words = FRENCH_OPS, step = "20.10.1, Step 13" })

local SUPPORTS, STRATEGIC = playbook.war_rows("allied", "the power's army", "a National Reserve unit", function(ctx, kind, power)
  return forces.owner_of_kind(ctx, kind) == power
end)

SUPPORTS.most_units = { words = "with the power's army that has the most units", pick = function(ctx, actions)
  return chart.best_action(actions, "place", function(a)
    return type(a.arg) == "string" and ctx.data.boxes[a.arg] and forces.units(ctx, a.arg) or nil
  end, 1)
end }

function bot.place_supports(ctx, seat, actions, t)
  return playbook.rows_or_done(ctx, t, "allied_supports", SUPPORTS, "20.10.3, Step 15", "the rest stay unplaced.", actions,
    power_of(ctx, seat))
end

function bot.strategic(ctx, seat, actions, t)
  local power = power_of(ctx, seat)
  local i = chart.pick_row(ctx, t, "allied_strategic", STRATEGIC, "20.10.4", actions, power)
  if i then
    return t:choose(i)
  end
  local reserve = STRATEGIC.reserve_fewest.pick(ctx, actions, power)
  if reserve then
    return t:choose(reserve, "After the last row of 20.10.4: the National Reserve is placed before %s is done (20.9, Step 12), to the army with the fewest units: %s.",
      name(ctx, power), actions[reserve].label)
  end
  return t:choose(named(actions, "done") or 1, "After the last row of 20.10.4: %s is done moving.", name(ctx, power))
end

-- ---------------------------------------------------------------------------------------
-- Steps 17-19: never withdraw, military cards, losses (20.11).

-- The Initial Battle Differential (L1711-L1715): the Allied DRM with every card the Allies
-- laid, less the French DRM with France's military cards; an explained sum.
local function ibd(ctx, laid)
  local state = ctx.vars.war.battle
  local sum = chart.differential_sum(ctx, "20.11.2: the Initial Battle Differential", "allied")
  playbook.add_cards(ctx, sum, state.cards.FR, -1, "against the Allies", "(French card)")
  playbook.add_cards(ctx, sum, state.cards.allied, 1, "(Allied card)", "(Allied card)")
  playbook.add_cards(ctx, sum, laid, 1, "against France", "(laid now)")
  return sum
end

local CARDS = botwar.card_rows(powers.allied)

function bot.battle_cards(ctx, seat, actions, t)
  local laid = ctx.private[seat].battle or {}
  local done = named(actions, "done")
  local differential = t:sum(ibd(ctx, laid))
  local stop = ctx.data.tables.allied_ibd_stop.stop
  if differential > stop then
    return t:choose(done, "20.11.2: the IBD %d is greater than %d: the Allies lay no more cards.", differential, stop)
  end
  -- In 22 the rules offer a neutral card only at the front it went to (22.1, L1994).
  return playbook.lay_card(ctx, t, actions, done, "allied_cards", CARDS, "20.11.2", "the Allies have")
end

-- Step 19 (20.11.3, L1721-L1723): each Allied power with no unit in its Force Pool removes a
-- unit first; then one unit of each nationality (Prussian, Swedish, Spanish and Portuguese
-- units are nationalities of their own; a British fleet is British), those with more units
-- in the battle first, round after round; Britain's losses alternate a fleet, then a unit.
-- The turn is rebuilt from the losses the rules counted in this removal (`locals.taken`).
local function nationality(kind)
  return kind == "BR_fleet" and "BR" or kind
end

-- The nationality that loses next, and the words of why.
local function next_loss(ctx, boxes, taken)
  local units, lost, owners = {}, {}, {}
  for _, box in ipairs(boxes) do
    local _, kinds = forces.units(ctx, box, "allied")
    for _, entry in ipairs(kinds) do
      local nation = nationality(entry.kind)
      units[nation] = (units[nation] or 0) + entry.n
      owners[forces.owner_of_kind(ctx, entry.kind)] = true
    end
  end
  local by_power = {}
  for kind, n in pairs(taken) do
    lost[nationality(kind)] = (lost[nationality(kind)] or 0) + n
    local owner = forces.owner_of_kind(ctx, kind)
    by_power[owner] = (by_power[owner] or 0) + n
  end
  for _, power in ipairs(ALLIED) do
    if owners[power] and forces.units(ctx, "pool." .. power) == 0 and (by_power[power] or 0) == 0 then
      return power, string.format("%s has no unit in its Force Pool: it loses one first", name(ctx, power)), true
    end
  end
  local best
  for nation, n in pairs(units) do
    local key = { lost = lost[nation] or 0, n = n, nation = nation }
    if best == nil or key.lost < best.lost or (key.lost == best.lost and (key.n > best.n
      or (key.n == best.n and key.nation < best.nation))) then
      best = key
    end
  end
  if best == nil then
    return nil, "no Allied unit is left"
  end
  return best.nation, string.format("one unit of each nationality in turn, the most numerous first: %s (%d in the battle, %d lost)",
    ctx.data.unit_kinds[best.nation].name, best.n, best.lost)
end

function bot.battle_losses(ctx, _, actions, t)
  local locals = ctx.locals
  if locals.side ~= "allied" then
    local i = chart.best_action(actions, "remove", function(a)
      return ctx:units(a.arg.box, a.arg.kind)
    end, 1)
    return t:choose(i or 1, "20 (best judgment): France's losses, which Step 19 does not order, off the largest box: %s.",
      actions[i or 1].label)
  end
  local taken = locals.taken or {}
  local boxes = {}
  for _, a in ipairs(actions) do
    if not util.contains(boxes, a.arg.box) then
      boxes[#boxes + 1] = a.arg.box
    end
  end
  local nation, why, by_power = next_loss(ctx, boxes, taken)
  -- Britain alternates: a fleet when it has lost no more fleets than British units (the
  -- Spanish and Portuguese are nationalities of their own in the cycle, L1723).
  local fleet_now = (taken.BR_fleet or 0) <= (taken.BR or 0)
  local i = chart.best_action(actions, "remove", function(a)
    local kind = a.arg.kind
    local matches = by_power and forces.owner_of_kind(ctx, kind) == nation or nationality(kind) == nation
    if not matches then
      return nil
    end
    local score = ctx:units(a.arg.box, kind)
    if nation == "BR" and (kind == "BR_fleet") == fleet_now then
      score = score + 1000
    end
    return score
  end, 1)
  if nation == "BR" then
    why = why .. (fleet_now and "; Britain's losses alternate, a fleet now" or "; Britain's losses alternate, a unit now")
  end
  return t:choose(i or 1, "20.11.3, Step 19: %s: %s.", why, actions[i or 1].label)
end

-- Step 17 (20.11.1, L1705): the Allies never withdraw.
local function withdraw(_, actions, t)
  local i = index_of(actions, function(a)
    return a.name == "choose" and a.arg == false
  end)
  return t:choose(i or 1, "20.11.1, Step 17: the Allies never withdraw.")
end

-- A Handicap card's issue (20.13, L1747): the criterion of Table 20.4, else at random.
local function handicap_issue(ctx, actions, t)
  return chart.handicap_choice(ctx, actions, t, function(piece)
    return type(piece) == "string" and ctx.data.pieces[piece] and priority_rank(ctx, ctx.locals.power, piece) or nil
  end, "20.13", "20.4")
end

-- Step 8 (20.6): the answer to France's offer, by the chart's rows.
local function trade_answer(ctx, actions, t)
  for key, word in rows(ctx, "allied_trade_answer") do
    local i = index_of(actions, function(a)
      return a.name == "choose" and a.arg == (word == "accept")
    end)
    if i then
      return t:choose(i, "20.6, Step 8, row %s: %s France's offer.", key, word == "accept" and "accept" or "refuse")
    end
  end
  local i = index_of(actions, function(a)
    return a.arg == false
  end)
  return t:choose(i or 1, "After the last row of 20.6, Step 8: the Allies refuse France's offer.")
end

local first_option = playbook.first_option("20 (best judgment)")

-- 20.9, Step 11, 2c: the funded Future Government of France moves away from the Emperor.
local function future_government(ctx, actions, t)
  local best, rank
  for i, action in ipairs(actions) do
    if action.name == "choose" and (rank == nil or government_rank(ctx, action.arg) > rank) then
      best, rank = i, government_rank(ctx, action.arg)
    end
  end
  return t:choose(best or 1, "20.9, Step 11, 2c: the Future Government of France moves away from the Emperor: %s.",
    actions[best or 1].label)
end

bot.decide = decide.answers({
  future_government = future_government,
  withdraw = withdraw,
  handicap_issue = handicap_issue,
  trade_answer = trade_answer,
}, first_option)

function bot.vp_summary(_, _, actions, t)
  return t:choose(named(actions, "done") or 1, "20.12: the bot adds nothing to the Victory Point Summary.")
end

return chart.bot(bot, "20 (best judgment)")
