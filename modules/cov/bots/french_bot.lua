-- Congress of Vienna: the French bot of Playbook section 21 (L1755-L1966), which plays France
-- against a person who plays the Coalition (seating solo-vs-french-bot). Its chart is module
-- data (data/bot_charts.ron, the tables french_*): the owner copies each row once from the
-- printed French Bot chart, as one of the words of VOCABULARY below (each a thing a row can
-- tell the bot to do, with its meaning in the table's doc); a row not entered yet is asked at
-- the table the first time the bot reaches it. The text's own rules are code here: Step 5's
-- pass (L1822), the trade letters of 21.5 (L1828), the bonus rule (L1832), M of 21.6 (L1844),
-- the IBD and its stop (L1912-L1918) and the signs of the modified IBD (L1904). Every reason
-- begins with the chart's step or table ("21.5.1, row 3: …"), and the numbers that decided
-- it are explained sums. Step 1 is rolled by the rules (rules/initial.lua); Step 17 needs a
-- Rulebook option the module lacks (RULES-GAPS.md).

local flowchart = include("@lib/flowchart.lua")
local util = include("@lib/util.lua")
local powers = include("rules/powers.lua")
local forces = include("rules/forces.lua")
local rules_war = include("rules/war.lua")
local display = include("rules/display.lua")
local cards = include("rules/cards.lua")
local solo = include("rules/cdgsm_display.lua")
local solitaire = include("rules/solitaire.lua")
local decide = include("rules/decide.lua")
local options = include("rules/options.lua")
local chartdice = include("rules/chartdice.lua")
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
  french_wager = { "highest_allied", "highest_non_military", "highest", "lowest", "none" },
  french_round = { "napoleon", "bonus", "trade", "negotiate", "none" },
  french_debate_steps = { "against_france", "allied_track", "table", "none" },
  french_spending = { "recruitment", "minor_units", "won_issues", "support", "liberalism", "sound", "none" },
  french_distribution = { "empty_armies", "ga_minimum", "paris_reserve", "none" },
  french_allied_ops = { "persian_war", "war_of_1812", "fewest_units", "french_advantage", "none" },
  french_ops = { "napoleon_ga", "grande_armee", "french_advantage", "war_of_1812", "none" },
  french_supports = { "grande_armee", "battle_fronts", "war_of_1812", "none" },
  french_strategic = { "reserve_to_ga", "reserve_to_battles", "reserve_fewest", "idle_to_battles", "none" },
  french_cards = { "napoleon", "front_only", "largest", "none" },
}

local ROUNDS = 6
local GA = "block.grande_armee"
local GA_BOX = "army.grande_armee"

local rows, filter, extreme, value_of = chart.rows, chart.filter, chart.extreme, chart.value_of
local has_op = chart.has_op

local function differential_sum(ctx, title)
  return chart.differential_sum(ctx, title, "allied")
end

local index_of, named = flowchart.first, chart.named
local field, issue_name, war_status, round_of, play_index = chart.field, chart.issue_name, chart.war_status,
  chart.round_of, chart.play_index

local function box_name(ctx, box)
  return ctx.data.boxes[box].name
end

local function holds(ctx, id, piece, t)
  return chart.holds(ctx, id, "FR", piece, t, "french_bot.undecided")
end

-- ---------------------------------------------------------------------------------------
-- Cards.

-- Whether a French card lies face up on the Coalition's display (21.5: then the bot checks a
-- trade).
local function french_card_face_up_on_allied_display(ctx)
  for _, option in ipairs(solo.face_up(ctx, "allies")) do
    if cards.nation(ctx, option.card) == "FR" then
      return option.card
    end
  end
  return nil
end

-- The cards of `list` whose French letter is C or D, D before C (21.5, L1828: the less
-- harmful to France first).
local function trade_cards(ctx, list)
  local low = filter(list, function(card)
    local l = cards.known_letter(ctx, card, "FR")
    return l == "C" or l == "D"
  end)
  return trade.order(ctx, low, "FR", "FR")
end

-- The Allied power France offers its trade to (option french_bot.trade_to).
local function trade_partner(ctx, offered)
  if #offered == 0 then
    return nil
  end
  if options.get(ctx, "french_bot.trade_to") == "random" and #offered > 1 then
    return offered[ctx:random(#offered, "the Allied power offered the trade (21.5)")]
  end
  return offered[1]
end

-- ---------------------------------------------------------------------------------------
-- Table 21.4: France's order of issues.

local MINOR_WORDS = { minor_unit = "a minor ally that gives France a unit", minor_vp = "a minor ally that gives only VP",
  minor_ally = "a minor ally (footnote **: one that gives a unit, else one that gives VP)" }

local function bonus_issue(ctx, card, pieces)
  return libissues.bonus_issue(ctx, card, "FR", pieces)
end

local function french_minor(ctx, piece)
  return libissues.matches(ctx, piece, "minor", "FR")
end

local function gives_unit(ctx, piece)
  return libissues.gives_units(ctx, piece, "FR")
end

-- Table 21.4's rows for each political status, read once a game (the table is data, which
-- never changes in a VM): every issue's rank reads them.
local selection_rows_of = {}

-- The rows of Table 21.4 for the political status: each {key, issue}. Callers only read
-- the list.
local function selection_rows(ctx)
  local status = war_status(ctx)
  local list = selection_rows_of[status]
  if list ~= nil then
    return list
  end
  list = {}
  local issues = ctx.data.tables.french_selection_issue
  for k = 1, 99 do
    local key = status .. "/" .. k
    local issue = issues[key]
    if issue == nil or issue == "none" then
      break
    end
    list[#list + 1] = { key = key, issue = issue, step = chart.row(ctx, "french_selection_issue", key) }
  end
  selection_rows_of[status] = list
  return list
end

-- The rank of `piece` in Table 21.4 (its first row naming it whose condition holds), or
-- nil; conditions the module cannot decide count as holding here (an order, not a choice).
local function selection_rank(ctx, piece)
  for rank, row in ipairs(selection_rows(ctx)) do
    if libissues.row_names(ctx, row.issue, piece, "FR") then
      local cond = ctx.data.tables.french_selection_condition[row.key]
      if conditions.holds(ctx, cond, "FR", piece) ~= false then
        return rank
      end
    end
  end
  return nil
end

-- Step 4: the first row of Table 21.4 whose condition holds and whose issue is offered.
local function select_issue(ctx, _, actions, t, what)
  return playbook.select_issue(ctx, actions, t, what, {
    rows = selection_rows(ctx), condition = "french_selection_condition", power = "FR",
    holds = function(cond)
      return holds(ctx, cond, nil, t)
    end,
    minor_words = MINOR_WORDS, table = "21.4", equal = "equal minor allies, at random (21.4, footnote **)",
  })
end

bot.free_issue = playbook.with(select_issue, "the free issue")
bot.selection = playbook.with(select_issue, "the issue")

-- ---------------------------------------------------------------------------------------
-- Step 3: the Wager card; 19.3's saves.

local WAGER = playbook.wager_rows("FR", "equal Wager cards (21.3, Step 3)", {
  highest_allied = { words = "the highest Allied card", pick = function(ctx, list)
    return extreme(ctx, filter(list, function(c)
      return util.contains({ "RU", "AU", "BR" }, cards.nation(ctx, c))
    end), 1, "equal Wager cards (21.3, Step 3)")
  end },
})

local function wager_card(ctx, actions, t)
  return playbook.wager_card(ctx, actions, t, "french_wager", WAGER, "21.3, Step 3", "")
end

-- ---------------------------------------------------------------------------------------
-- Steps 5 and 6: France's rounds (21.5).

-- The best negotiation among `hand` and `pieces`: the most spaces gained for France; equal
-- gains, the earlier issue of Table 21.4, then the higher card. {card, piece, gain, pos}.
local function best_negotiation(ctx, hand, pieces)
  local ranks = {}
  for _, piece in ipairs(pieces) do
    ranks[piece] = selection_rank(ctx, piece) or 99
  end
  local best
  for _, card in ipairs(hand) do
    local value = value_of(ctx, card)
    for _, piece in ipairs(pieces) do
      local g, pos = reach.gain(ctx, card, piece, "FR", false)
      local this = g and { card = card, piece = piece, gain = g, pos = pos, rank = ranks[piece], value = value }
      if this and (best == nil or chart.before(this, best)) then
        best = this
      end
    end
  end
  return best
end

local function negotiation_words(ctx, plan)
  return playbook.negotiation_words(ctx, "FR", plan, "21.4")
end

-- The face-up non-military cards of France's display (L1822).
local function face_up_non_military(ctx)
  return #filter(solo.face_up(ctx, "FR"), function(option)
    return field(ctx, option.card, "military") ~= true
  end)
end

-- The partners a trade action is offered to, in the actions' order.
local function offered_partners(actions)
  local list = {}
  for _, action in ipairs(actions) do
    if action.name == "trade" then
      list[#list + 1] = action.arg
    end
  end
  return list
end

-- Table 21.5.2: NAPOLEON's row, if one applies: {key, piece}.
local function napoleon_plan(ctx, pieces, t)
  return playbook.leader_plan(ctx, t, pieces, {
    issues = "french_napoleon_issue", condition = "french_napoleon_condition", power = "FR",
    holds = function(cond)
      return holds(ctx, cond, nil, t)
    end,
    label = function(key)
      return "21.5.2, row " .. key
    end,
    minor_words = MINOR_WORDS,
  })
end

-- Step 5 (L1822): France passes when it debated since it last negotiated (the rules offer
-- the pass then), its Military pile has gone to the draw pile, and fewer face-up
-- non-military cards lie on its display than French rounds remain, this one included.
local function step5_pass(ctx, actions, t)
  local pass = named(actions, "pass")
  if pass == nil then
    return nil
  end
  if #actions == 1 then
    return pass, "21.5, Step 5: France has nothing to play: it passes."
  end
  local transferred = solo.transferred(ctx, "FR")
  local up, left = face_up_non_military(ctx), ROUNDS - round_of(ctx) + 1
  local passes = t:ask(string.format(
    "21.5, Step 5: France debated since it last negotiated; its Military pile has %sgone to the draw pile; %d face-up non-military card%s on its display against %d French round%s left, this one included. Does it pass?",
    transferred and "" or "not ", up, up == 1 and "" or "s", left, left == 1 and "" or "s"), transferred and up < left)
  return passes and pass or nil, "France passes."
end

-- Table 21.5.1 read for the card the fate die gave (or, `card` nil, before the die): what
-- France does. Returns {row, what = "napoleon"|"bonus"|"trade"|"negotiate", ...}.
local function round_plan(ctx, available, pieces, partners, t)
  local trade_check = french_card_face_up_on_allied_display(ctx)
  for key, word in rows(ctx, "french_round") do
    if word == "napoleon" then
      t:step("21.5.1, row %s: NAPOLEON was weighed before the fate die (Table 21.5.2).", key)
    elseif word == "bonus" then
      local plan = playbook.bonus_plan(ctx, t, "21.5.1, row", key, "FR", available, pieces)
      if plan then
        return plan
      end
    elseif word == "trade" then
      local partner = trade_partner(ctx, partners)
      local low = trade_check and partner and trade_cards(ctx, available) or {}
      if trade_check == nil then
        t:step("21.5.1, row %s: no French card lies face up on the Coalition's display: no trade.", key)
      elseif partner == nil then
        t:step("21.5.1, row %s: %s lies face up on the Coalition's display, but no Allied power may trade.", key,
          cards.name(ctx, trade_check))
      elseif #low == 0 then
        t:step("21.5.1, row %s: %s lies face up on the Coalition's display; no available card has the French letter C or D.",
          key, cards.name(ctx, trade_check))
      else
        return { key = key, what = "trade", card = low[1], to = partner, seen = trade_check }
      end
    elseif word == "negotiate" then
      local plan = #pieces > 0 and best_negotiation(ctx, available, pieces) or nil
      if plan then
        plan.key, plan.what = key, "negotiate"
        return plan
      end
      t:step("21.5.1, row %s: no card can be negotiated.", key)
    end
  end
  return nil
end

local function letter_words(ctx, card)
  return string.format("%s, French letter %s", cards.name(ctx, card), cards.known_letter(ctx, card, "FR") or "?")
end

local function plan_words(ctx, plan)
  if plan.what == "bonus" then
    return string.format("21.5.1, row %s: %s collects its bonus on %s.", plan.key, cards.name(ctx, plan.card),
      issue_name(ctx, plan.piece))
  elseif plan.what == "trade" then
    return string.format("21.5.1, row %s: %s lies face up on the Coalition's display: trade %s (D before C) to %s.",
      plan.key, cards.name(ctx, plan.seen), letter_words(ctx, plan.card), powers.name(ctx, plan.to))
  end
  return string.format("21.5.1, row %s: negotiate: %s.", plan.key, negotiation_words(ctx, plan))
end

function bot.round_turn(ctx, _, actions, t)
  local drawn = ctx.locals.drawn
  local pieces = display.negotiable(ctx)
  if drawn then
    local partners = offered_partners(actions)
    local plan = round_plan(ctx, { drawn }, named(actions, "negotiate") and pieces or {}, partners, t)
    if plan and plan.what == "trade" then
      return t:choose(named(actions, "trade", plan.to), "%s", plan_words(ctx, plan))
    elseif plan then
      return t:choose(named(actions, "negotiate"), "%s", plan_words(ctx, plan))
    end
    local i = named(actions, "negotiate") or 1
    return t:choose(i, "After the last row of 21.5.1: %s.", actions[i].label)
  end
  local pass, why = step5_pass(ctx, actions, t)
  if pass then
    return t:choose(pass, why)
  end
  for key, word in rows(ctx, "french_round") do
    if word == "napoleon" then
      local leader = named(actions, "leader", "napoleon")
      local plan = leader and napoleon_plan(ctx, pieces, t)
      if plan then
        return t:choose(leader, "21.5.1, row %s, Table 21.5.2, row %s: play NAPOLEON on %s.", key, plan.key,
          issue_name(ctx, plan.piece))
      end
      t:step("21.5.1, row %s: %s.", key, leader and "no row of Table 21.5.2 applies" or "NAPOLEON is not beside the display")
    else
      break
    end
  end
  local draw = named(actions, "draw")
  if draw then
    return t:choose(draw, "21.5, Step 6: roll the fate die first, to see the cards France may play.")
  end
  -- The card-driven method asks for the play first (option cdgsm.bot_roll=declare).
  local trade_check = french_card_face_up_on_allied_display(ctx)
  local partner = trade_partner(ctx, offered_partners(actions))
  if trade_check and partner then
    return t:choose(named(actions, "trade", partner), "21.5.1: %s lies face up on the Coalition's display: offer %s a trade.",
      cards.name(ctx, trade_check), powers.name(ctx, partner))
  end
  local i = named(actions, "negotiate") or named(actions, "pass") or 1
  return t:choose(i, "21.5, Step 6: %s.", actions[i].label)
end

-- The issue for the card France plays: NAPOLEON's from Table 21.5.2; a card collecting its
-- bonus, that issue; otherwise the best negotiation.
function bot.negotiation(ctx, _, actions, t)
  local pieces, card, on = flowchart.collect(actions, "on", "piece"), ctx.locals.card, playbook.on(actions)
  if ctx.locals.leader then
    local plan = napoleon_plan(ctx, pieces, t)
    if plan then
      return t:choose(on(plan.piece), "21.5.2, row %s: NAPOLEON takes %s to France's Seat.", plan.key,
        issue_name(ctx, plan.piece))
    end
    local best = playbook.first_ranked(pieces, function(piece)
      return selection_rank(ctx, piece)
    end)
    return t:choose(on(best) or 1, "After the last row of 21.5.2: the first issue of Table 21.4 offered, %s.",
      best and issue_name(ctx, best) or actions[1].label)
  end
  local piece = bonus_issue(ctx, card, pieces)
  if piece then
    return t:choose(on(piece), "21.5.1: %s collects its bonus on %s.", cards.name(ctx, card), issue_name(ctx, piece))
  end
  local plan = best_negotiation(ctx, { card }, pieces)
  if plan then
    return t:choose(on(plan.piece), "21.5.1: negotiate: %s.", negotiation_words(ctx, plan))
  end
  return t:choose(1, "21.5.1: no card value entered to weigh the issues: %s.", actions[1].label)
end

-- ---------------------------------------------------------------------------------------
-- Step 7: debates (21.6).

local function debate_class(ctx, piece)
  local rank = selection_rank(ctx, piece)
  if rank == 1 then
    return "highest"
  end
  return rank and "priority" or "other"
end

-- Whether a roll debates against M (option solitaire.debate_roll: 1 to M as printed for
-- the French bot).
local function roll_debates(ctx, roll, m)
  if options.get(ctx, "solitaire.debate_roll") == "below" then
    return roll < m, "below"
  end
  return roll <= m, "at most"
end

-- Table 21.6.1's steps and Table 21.6.2: "debate", "roll" (the die is to be rolled) or nil.
local function debate_decision(ctx, piece, t)
  local track = display.track_of(ctx, piece)
  for key, word in rows(ctx, "french_debate_steps") do
    if word == "against_france" then
      if not t:ask(string.format("21.6.1, step %s: is %s off France's track (now on %s)?", key, issue_name(ctx, piece),
        display.describe_piece(ctx, piece)), track ~= "FR") then
        return nil
      end
    elseif word == "allied_track" then
      if not t:ask(string.format("21.6.1, step %s: does %s stand on an Allied power's track?", key,
        issue_name(ctx, piece)), track ~= nil and track ~= "FR") then
        return nil
      end
    elseif word == "table" then
      local class = debate_class(ctx, piece)
      local pile = solo.transferred(ctx, "FR") and "transferred" or "active"
      t:step("21.6.1, step %s: Table 21.6.2.", key)
      return (playbook.debate_cell(ctx, t, "french_debate", class .. "/" .. round_of(ctx) .. "/" .. pile, piece, "FR",
        "21.6.2: ", "France", roll_debates))
    end
  end
  return "debate"
end

local function debate_or_pass(ctx, _, actions, t, name)
  local decision = debate_decision(ctx, ctx.locals.piece, t)
  return playbook.declare(actions, t, decision, named(actions, "chart_roll"), name, "FR", {
    roll = "21.6.2: France rolls its debate die.",
    act = string.format("21.6: France %s; the fate die gives its card.", name == "preempt" and "pre-empts" or "debates"),
    pass = string.format("21.6: France does not %s.", name == "preempt" and "pre-empt" or "debate"),
  })
end

bot.debate = playbook.with(debate_or_pass, "debate")
bot.preempt = playbook.with(debate_or_pass, "preempt")

-- ---------------------------------------------------------------------------------------
-- The card-driven solo method (19.3): the card France plays from its display.

function bot.cdgsm_play(ctx, _, actions, t)
  local locals = ctx.locals
  local function round(offered)
    local pieces = display.negotiable(ctx)
    local trades = locals.purpose == "round" and solitaire.may_start_trade(ctx, "FR")
    local partners = trades and powers.allied(ctx) or {}
    local plan = round_plan(ctx, offered, pieces, partners, t)
    if plan then
      return t:choose(play_index(actions, plan.card), "%s", plan_words(ctx, plan))
    end
    return t:choose(1, "After the last row of 21.5.1: %s.", actions[1].label)
  end
  return playbook.cdgsm_play(ctx, actions, t, {
    wager = function()
      return wager_card(ctx, actions, t)
    end,
    round = round,
    negotiate = round,
    trade = function(offered)
      local low = trade_cards(ctx, offered)
      local card = low[1] or trade.order(ctx, offered, "FR", "FR")[1]
      return t:choose(play_index(actions, card), "21.5.1: trade %s (D before C, then the lowest).", letter_words(ctx, card))
    end,
    debate = function(offered)
      local piece = locals.piece
      local card, pos = playbook.farthest_card(ctx, offered, piece, "FR", "equal debate cards (21.6)")
      if card then
        return t:choose(play_index(actions, card), "21.6: debate with %s: %s to %s, the furthest toward France.",
          cards.name(ctx, card), issue_name(ctx, piece), reach.words(ctx, "FR", pos))
      end
      return t:choose(1, "21.6: no card's values entered to weigh the debate: %s.", actions[1].label)
    end,
    -- A Leader's cost (the discard): the card France needs least, by its letters.
    cost = function(offered)
      local card = playbook.least_needed(ctx, offered, "FR")
      return t:choose(play_index(actions, card), "21.5.2: NAPOLEON's cost, the card France needs least: %s.",
        letter_words(ctx, card))
    end,
  })
end

-- ---------------------------------------------------------------------------------------
-- Step 9: Government spending (21.8.1).

local function funded_ops(ctx)
  local n = botwar.french_ops_funded(ctx)
  -- NAPOLEON's free operation counts two: the Grande Armée takes two markers with him (L480).
  return n + (rules_war.napoleon_available(ctx) and 2 or 0)
end

local SPENDING = {
  recruitment = { words = "French Recruitment", pick = function(ctx, actions)
    return named(actions, "fund", "issue.recruit_fr")
  end },
  minor_units = { words = "a minor ally that gives France a unit", pick = function(ctx, actions)
    return index_of(actions, function(a)
      return a.name == "fund" and french_minor(ctx, a.arg) and gives_unit(ctx, a.arg)
    end)
  end },
  won_issues = { words = "another issue France won", pick = function(_, actions)
    return named(actions, "fund")
  end },
  support = { words = "a Military Support marker, fewer bought than France's Military Operations", pick = function(ctx, actions, t)
    local i = named(actions, "support")
    if i == nil then
      return nil
    end
    local bought = ((ctx.vars.government or {}).supports or {}).FR or 0
    local ops = funded_ops(ctx)
    return t:ask(string.format("%d bought, fewer than %d for the operations (NAPOLEON's counting two)?", bought, ops),
      bought < ops) and i or nil
  end },
  liberalism = { words = "one Resource on the Liberalism roll", pick = function(ctx, actions)
    local spent = 0
    for _, entry in ipairs(((ctx.vars.government or {}).drm or {}).lib_abs or {}) do
      spent = spent + (entry.power == "FR" and 1 or 0)
    end
    if spent > 0 then
      return nil
    end
    return named(actions, "fund", "issue.lib_abs") or named(actions, "lib_abs")
  end },
  sound = { words = "Sound Government", pick = function(_, actions)
    return named(actions, "sound")
  end },
}

function bot.spend(ctx, _, actions, t)
  return playbook.rows_or_done(ctx, t, "french_spending", SPENDING, "21.8.1, Step 9", "France keeps the rest.", actions, t)
end

-- ---------------------------------------------------------------------------------------
-- Step 10: new units and the Paris Reserve (21.8.2).

function bot.new_units(ctx, _, actions, t)
  local us = index_of(actions, function(a)
    return a.name == "place" and a.arg.kind == "US" and a.arg.box == forces.W1812
  end)
  if us then
    return t:choose(us, "21.8.2, Step 10: a US unit goes to the War of 1812 box.")
  end
  local minimum = ctx.data.tables.french_ga_minimum.units
  for key, word in rows(ctx, "french_distribution") do
    if word == "empty_armies" then
      for _, block in ipairs(forces.armies_of(ctx, "FR")) do
        local box = forces.box(block)
        local i = forces.units(ctx, box, "FR") == 0 and named(actions, "place") and index_of(actions, function(a)
          return a.name == "place" and a.arg.box == box and a.arg.kind == "FR"
        end)
        if i then
          return t:choose(i, "21.8.2, Step 10, row %s: %s has no unit: one goes there.", key, box_name(ctx, box))
        end
      end
      t:step("21.8.2, Step 10, row %s: every French army has a unit.", key)
    elseif word == "ga_minimum" then
      local n = forces.active(ctx, GA) and forces.units(ctx, GA_BOX, "FR") or nil
      local i = n and n < minimum and index_of(actions, function(a)
        return a.name == "place" and a.arg.box == GA_BOX and a.arg.kind == "FR"
      end)
      if i then
        return t:choose(i, "21.8.2, Step 10, row %s: the Grande Armée has %d units, fewer than its minimum %d: one more.",
          key, n, minimum)
      end
      t:step("21.8.2, Step 10, row %s: the Grande Armée %s.", key,
        n and string.format("has %d units, its minimum %d", n, minimum) or "is not on the map")
    elseif word == "paris_reserve" then
      local keep = named(actions, "keep")
      if keep then
        return t:choose(keep, "21.8.2, Step 10, row %s: the rest stay in the Paris Reserve, placed in strategic movement.", key)
      end
      t:step("21.8.2, Step 10, row %s: no Paris Reserve to keep.", key)
    end
  end
  local i = named(actions, "keep") or 1
  return t:choose(i, "After the last row of 21.8.2, Step 10: %s.", actions[i].label)
end

-- ---------------------------------------------------------------------------------------
-- Steps 11-14: the War Phase's placements and moves (21.9).

local ALLIED_OPS = playbook.merged(playbook.ALLIED_OP_ROWS, {
  fewest_units = playbook.fewest_row("with the owner's army that has the fewest units"),
  french_advantage = playbook.outnumber_row("with the owner's army where France outnumbers the Allies the most", "FR"),
})

local FRENCH_OPS = {
  napoleon_ga = { words = "NAPOLEON's free operation with the Grande Armée", pick = function(ctx, actions, op)
    return op.marker == "napoleon" and named(actions, "place", GA) or nil
  end },
  grande_armee = { words = "with the Grande Armée, which has no operation yet", pick = function(ctx, actions)
    return not has_op(ctx, GA) and named(actions, "place", GA) or nil
  end },
  french_advantage = playbook.outnumber_row(
    "with the French army, without an operation yet, where France outnumbers the Allies the most", "FR", true),
  war_of_1812 = playbook.W1812_ROW,
}

bot.place_ops = playbook.place_ops({ id = "french_ops", words = FRENCH_OPS, step = "21.9.2, Step 12" },
  { id = "french_allied_ops", words = ALLIED_OPS, step = "21.9.1" })

local SUPPORTS, STRATEGIC = playbook.war_rows("FR", "the French army", "a Paris Reserve unit", function(_, kind)
  return kind == "FR"
end)

SUPPORTS.grande_armee = { words = "with the Grande Armée", pick = function(_, actions)
  return named(actions, "place", GA_BOX)
end }

STRATEGIC.reserve_to_ga = { words = "a Paris Reserve unit to the Grande Armée", pick = function(_, actions)
  return index_of(actions, function(a)
    return a.name == "reserve" and a.arg.box == GA_BOX
  end)
end }

function bot.place_supports(ctx, _, actions, t)
  return playbook.rows_or_done(ctx, t, "french_supports", SUPPORTS, "21.9.3, Step 13", "the rest stay unplaced.", actions, "FR")
end

function bot.strategic(ctx, _, actions, t)
  local i = chart.pick_row(ctx, t, "french_strategic", STRATEGIC, "21.9.4", actions, "FR")
  if i then
    return t:choose(i)
  end
  local reserve = STRATEGIC.reserve_fewest.pick(ctx, actions)
  if reserve then
    return t:choose(reserve, "After the last row of 21.9.4: the Paris Reserve is placed before France is done (21.8.2), to the army with the fewest units: %s.",
      actions[reserve].label)
  end
  return t:choose(named(actions, "done") or 1, "After the last row of 21.9.4: France is done moving.")
end

-- ---------------------------------------------------------------------------------------
-- Steps 15 and 16: withdrawal and military cards (21.10).

-- The Initial Battle Differential of the battle being fought (L1912-L1916): the Allied DRM
-- with every military card the Allies used, less the French DRM with the cards France laid
-- here; an explained sum.
local function ibd(ctx, laid)
  local state = ctx.vars.war.battle
  local sum = differential_sum(ctx, "21.10.2: the Initial Battle Differential")
  -- An Allied card raises the Allied DRM or lowers the French one: either way, the IBD.
  playbook.add_cards(ctx, sum, state.cards.allied, 1, "against France", "(Allied card)")
  playbook.add_cards(ctx, sum, laid, -1, "against the Allies", "(French card)")
  return sum
end

local function stop_at(ctx)
  return ctx.data.tables.french_ibd_stop.stop
end

local function lay_index(actions, card)
  return index_of(actions, function(a)
    return a.name == "lay" and a.card == card and (a.arg.target == nil or a.arg.target == "own")
  end)
end

local CARDS = botwar.card_rows(function()
  return { "FR" }
end)
CARDS.napoleon = { words = "NAPOLEON where the Grande Armée fights, BERTHIER with him", pick = function(ctx, actions, laid)
    local ga = util.contains(ctx.vars.war.battle.armies.FR or {}, GA)
    if not ga then
      return nil
    end
    local with_napoleon = laid.napoleon or false
    if not with_napoleon then
      return lay_index(actions, "napoleon")
    end
    return lay_index(actions, "berthier")
  end }

function bot.battle_cards(ctx, seat, actions, t)
  local laid_list = ctx.private[seat].battle or {}
  local laid = {}
  for _, entry in ipairs(laid_list) do
    laid[entry.card] = true
  end
  local done = named(actions, "done")
  local sum = ibd(ctx, laid_list)
  local differential = t:sum(sum)
  local stop = stop_at(ctx)
  if differential < stop then
    return t:choose(done, "21.10.2: the IBD %d is below %d: France lays no more cards.", differential, stop)
  end
  return playbook.lay_card(ctx, t, actions, done, "french_cards", CARDS, "21.10.2", "France has", laid)
end

-- Step 15 (L1900-L1906): the IBD without cards, modified by the chart's rows; negative, France
-- fights; positive, it withdraws; zero, the die decides (option french_bot.withdraw_zero).
local function withdraw(ctx, actions, t)
  local sum = differential_sum(ctx, "21.10.1, Step 15: the modified IBD")
  for key, cond in rows(ctx, "french_withdraw_condition") do
    local applies = holds(ctx, cond, nil, t)
    local drm = ctx.data.tables.french_withdraw_drm[key]
    t:step("21.10.1, Step 15, row %s: %s: %s.", key, conditions.words(cond),
      applies and string.format("%+d", drm) or "does not apply")
    if applies then
      sum:add(drm, conditions.words(cond))
    end
  end
  local modified = t:sum(sum)
  local function answer(withdraws, why, ...)
    local i = index_of(actions, function(a)
      return a.name == "choose" and a.arg == withdraws
    end)
    return t:choose(i, why, ...)
  end
  if modified < 0 then
    return answer(false, "21.10.1, Step 15: the modified IBD is negative: France fights.")
  elseif modified > 0 then
    return answer(true, "21.10.1, Step 15: the modified IBD is positive: France withdraws.")
  end
  if options.get(ctx, "french_bot.withdraw_zero") == "fight" then
    return answer(false, "21.10.1, Step 15: the modified IBD is zero: France fights (as the game is set up: %s).",
      options.words(ctx, "french_bot.withdraw_zero"))
  end
  local roll = chartdice.rolled(ctx, "FR")
  if roll == nil then
    local i = named(actions, "chart_roll")
    if i then
      return t:choose(i, "21.10.1, Step 15: the modified IBD is zero: the die decides (4-6 withdraws).")
    end
    return answer(false, "21.10.1, Step 15: the modified IBD is zero and no die can be rolled: France fights.")
  end
  return answer(roll >= 4, "21.10.1, Step 15: the modified IBD is zero; the die shows %d: France %s.", roll,
    roll >= 4 and "withdraws" or "fights")
end

-- A Handicap card's issue (21.12): the criterion of Table 21.4, else at random (L1956).
local function handicap_issue(ctx, actions, t)
  return chart.handicap_choice(ctx, actions, t, function(piece)
    return selection_rank(ctx, piece)
  end, "21.12", "21.4")
end

local first_option = playbook.first_option("21 (best judgment)")

bot.decide = decide.answers({
  withdraw = withdraw,
  handicap_issue = handicap_issue,
  bonus = playbook.liberalism_bonus("21.8.1: a card's bonus goes on the Liberalism roll (Step 9's row for it).",
    first_option),
  -- No trade_answer: the Allies never start a trade with France (21.7 #1, L1850), which the
  -- rules keep (solitaire.may_start_trade), so the French bot is never asked one.
}, first_option)

-- Battle losses: the chart gives no order (Step 17 is about staying in the mountains, a
-- Rulebook option the module lacks); from the largest French box.
bot.battle_losses = botwar.losses_by_size("21.10: losses come off the largest French box (%s units): %s.")

function bot.vp_summary(_, _, actions, t)
  return t:choose(named(actions, "done") or 1, "21.11: the bot adds nothing to the Victory Point Summary.")
end

return chart.bot(bot, "21 (best judgment)")
