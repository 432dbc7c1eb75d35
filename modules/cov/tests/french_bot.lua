-- Congress of Vienna: the French bot of section 21 against the Playbook's worked examples
-- and the text's own rules (the Wager, Table 21.4, Steps 5-7, Step 15, Step 16). Each test
-- plays The Clash of Armies (turn 5, August 1813, in the Armistice) in the seating
-- solo-vs-french-bot with the test fixture's placeholder owner data (its chart rows are
-- placeholders too), every seat answered by the test; what the test does not set up is the
-- first legal action. The fixture's fate die: 1 "C or lowest-lettered", 2 "AB", 3 "DE",
-- 4 "ABC", 5 "CDE", 6 "all except C".

local util = include("@lib/util.lua")
local play = include("tests/lib/play.lua")

local ALL, CDE = 6, 5
local BIG = { instructions = 2000000000, seconds = 100 }

local game = play.seating("solo-vs-french-bot")

local function french(state)
  return function(g)
    local p = g:prompt()
    return p ~= nil and g:state() == state and p.seat == "FR"
  end
end

-- The bot's choice and its reasons in one line.
local function choice(g)
  local chosen, reasons = g:bot_choice("french_bot", "FR")
  return chosen, table.concat(reasons or {}, " | ")
end

local function has(text, part)
  return string.find(text, part, 1, true) ~= nil
end

-- Rule: 21.7 #1 (L1850): the Allied player cannot start a trade with France. Set-up: the
-- Clash against the French bot; each of the three Allied powers' first round turns, played
-- by the person. Expected: none of them is offered a trade (the rules' own step: the French
-- bot is never asked to answer one), while France's round turn is.
test("21.7 #1 the Allied player starts no trade with the French bot", BIG, function(t)
  local g = game(t)
  for _, power in ipairs({ "RU", "AU", "BR" }) do
    play.to(g, function(game)
      local p = game:prompt()
      return p ~= nil and game:state() == "round_turn" and p.seat == power
    end, { ALL })
    for _, legal in ipairs(g:legal()) do
      t:ok(not has(legal, "trade"), power .. " is offered no trade: " .. legal)
    end
    play.first(g, { ALL })
  end
end)

-- Rule: 21.4's example (L1814-L1816). Set-up: the Clash, in the Armistice, at France's issue
-- selection; French Recruitment waiting on the Diplomacy Display, then by hand on France's
-- track. Expected: Table 21.4's Armistice row 1 takes French Recruitment; with it placed,
-- row 2 takes one of the seven minor allies that give France a unit (footnote **: at
-- random among Italy, Naples, Bavaria, Norway, Saxony, Holland and Hanover; the fixture
-- gives each a unit).
test("21.4 French issue selection in the Armistice: French Recruitment, then a minor ally with a unit", BIG, function(t)
  local g = game(t)
  play.to(g, function(game)
    return french("selection")(game) or french("free_issue")(game)
  end, { ALL })
  t:eq(g:vars().war_status, "armistice")
  g:place("issue.recruit_fr", "diplomacy", "display")
  local chosen, why = choice(g)
  t:ok(has(chosen, "issue.recruit_fr"), "French Recruitment: " .. chosen .. " / " .. why)
  t:ok(has(why, "21.4, the Armistice, row 1: "), why)
  g:place("issue.recruit_fr", "diplomacy", "FR-2")
  local minors = { "italy", "naples", "bavaria", "norway", "saxony", "holland", "hanover" }
  for _, minor in ipairs(minors) do
    g:place("issue." .. minor, "diplomacy", "display")
  end
  chosen, why = choice(g)
  local found = false
  for _, minor in ipairs(minors) do
    found = found or has(chosen, "issue." .. minor)
  end
  t:ok(found, "a minor ally with a unit: " .. chosen .. " / " .. why)
  t:ok(has(why, "21.4, the Armistice, row 1: French Recruitment is not offered.") and has(why, "21.4, the Armistice, row 2: "), why)
end)

-- Plays the Clash to France's first round turn from stacked displays (the Coalition's Wager
-- cards and France's the first offered, the fate die "all except C"), NAPOLEON set aside so
-- that Table 21.5.2 plays no part.
local FRENCH_STACK = { "card_62", "event_61", "unidentified_1", "unidentified_2", "unidentified_3", "unidentified_4",
  "caulaincourt", "talleyrand", "marmont", "duroc", "oudinot", "poniatowski", "fouche" }
local ALLIED_STACK = { "liverpool", "gentz", "yorck", "stein", "bexley", "graham", "scharnhorst", "hardenberg" }

local function to_french_round(t, options)
  local g = game(t, nil, options)
  play.to(g, "clash")
  play.stack(g, { FR = FRENCH_STACK, allies = ALLIED_STACK })
  play.to(g, french("round_turn"), { ALL })
  g:move_card("napoleon", "removed")
  return g
end

-- Rule: 21.5's example "Determining card trades" (L1826-L1828). Set-up: France's round, its
-- display laid by hand with WITTGENSTEIN (French letter B) on top of the draw pile, GAMBIER
-- (C) in D and VON GENTZ (D) in E; Soult, a French card, face up on the Coalition's
-- display. The fate die shows "CDE". Expected: the bot rolls first (Step 6), the three
-- cards turn up, and it plays VON GENTZ to trade (D before C), never WITTGENSTEIN (B); then
-- it offers it to an Allied power (clockwise, option french_bot.trade_to).
test("21.5 the trade example: the CDE cards give Von Gentz, not Gambier, never Wittgenstein", BIG, function(t)
  local g = to_french_round(t)
  play.lay(g, "FR", { A = { "card_62" }, B = { "event_61" }, D = { "gambier" }, E = { "gentz" }, C = { "wittgenstein" } })
  play.lay(g, "allies", { A = "soult" })
  local chosen, why = choice(g)
  t:eq(chosen, "draw", why .. " legal: " .. table.concat(g:legal(), "; "))
  t:ok(has(why, "21.5, Step 6: roll the fate die first"), why)
  g:act("draw", nil, { CDE })
  if util.contains(g:legal(), "save_none") then
    g:act("save_none")
  end
  t:eq(g:legal(), { "play gambier", "play gentz", "play wittgenstein" })
  chosen, why = choice(g)
  t:eq(chosen, "play gentz", why)
  t:ok(has(why, "21.5.1, row 2: no available card collects its bonus now"), why)
  t:ok(has(why, "21.5.1, row 3: Soult lies face up on the Coalition's display: trade Von Gentz, French letter D (D before C) to Russia."), why)
  g:act("play", "gentz")
  chosen, why = choice(g)
  t:eq(chosen, "trade RU", why)
end)

-- Rule: 21.5's example "Normal/bonus card" (L1834-L1836) and the rule before it (L1832): a
-- card that cannot collect its bonus is a normal card. Set-up: France's round, PONIATOWSKI
-- and FOUCHÉ face up in A and B, Poland waiting to be negotiated; the fate die "AB".
-- Expected: before Austria at War, PONIATOWSKI collects its unit on Poland: row 2 (bonus)
-- plays it there; in the same game on the next turn, after Austria at War, row 2 finds no
-- bonus and PONIATOWSKI is weighed as a normal card.
test("21.5 Poniatowski plays for its bonus before Austria at War, and as a normal card after", BIG, function(t)
  local g = to_french_round(t)
  g:place("issue.poland", "diplomacy", "table")
  play.lay(g, "FR", { A = { "poniatowski" }, B = { "fouche" }, D = { "card_62" }, E = { "event_61" }, C = {} })
  g:act("draw", nil, { 2 })
  if util.contains(g:legal(), "save_none") then
    g:act("save_none")
  end
  local chosen, why = choice(g)
  t:eq(chosen, "play poniatowski", why)
  t:ok(has(why, "21.5.1, row 2: Poniatowski collects its bonus on Poland."), why)
  g:act("play", "poniatowski")
  chosen, why = choice(g)
  t:eq(chosen, "negotiate poniatowski", why)
  g:act("negotiate", "poniatowski")
  chosen, why = choice(g)
  t:eq(chosen, "on issue.poland", why)
  t:ok(has(why, "21.5.1: Poniatowski collects its bonus on Poland."), why)
  -- The next turn, after Austria at War: by hand, Austria wins it at the end of the
  -- Diplomacy Phase, and funds it (a mandatory issue) in the Government Phase.
  play.to(g, "spend", { ALL })
  t:ok(g:prompt().seat ~= "AU", "Austria has not spent yet: " .. tostring(g:prompt().seat))
  g:place("issue.austria_at_war", "diplomacy", "AU-3")
  play.to(g, function(game)
    return game:turn() == 6 and french("round_turn")(game)
  end, { ALL })
  t:ok(g:vars().austria_at_war_done == true, "Austria went to war in turn 5's Government Phase")
  g:move_card("napoleon", "removed")
  g:place("issue.poland", "diplomacy", "table")
  play.lay(g, "FR", { A = { "poniatowski" }, B = { "fouche" } })
  g:act("draw", nil, { 2 })
  if util.contains(g:legal(), "save_none") then
    g:act("save_none")
  end
  chosen, why = choice(g)
  t:ok(has(why, "21.5.1, row 2: no available card collects its bonus now (it would be a normal card)."), why)
  t:ok(has(why, "21.5.1, row 4: negotiate: "), why)
end)

-- Rule: 21.6's example "Determine debate value" (L1842-L1844). Set-up: Russia (the person)
-- negotiates Saxony at France's first chance to debate; by hand the issue then stands on
-- Russia 2, a row-2 issue of Table 21.4 (a "priority" issue, whose cell in the fixture's
-- Table 21.6.2 is "roll"). Expected: M = 7 - 2 = 5: the bot rolls its die, then debates on
-- 1 to 5 and not on 6 (the die set by the test each time).
test("21.6 M = 7 - 2 = 5 on Russia 2: France debates on 1-5, not on 6", BIG, function(t)
  local g = to_french_round(t)
  g:act("pass")
  play.to_seat(g, "round_turn", "RU", { ALL })
  g:place("issue.saxony", "diplomacy", "table")
  play.negotiate_first_card(g, ALL)
  g:act("on", "issue.saxony")
  play.to(g, function(game)
    local p = game:prompt()
    for _, ask in ipairs(p.asks) do
      if ask.seat == "FR" then
        return true
      end
    end
    return false
  end)
  g:place("issue.saxony", "diplomacy", "RU-2")
  local chosen, why = choice(g)
  t:ok(has(chosen, "chart_roll"), "[" .. chosen .. "] / " .. why)
  t:ok(has(why, "roll 1d6 against M = 7 - 2 = 5."), why)
  local roll = play.chart_roll(g, "FR")
  for die = 1, 6 do
    g:act_as("FR", "chart_roll", roll.arg, { die })
    chosen, why = choice(g)
    if die <= 5 then
      t:ok(has(chosen, "debate") or has(chosen, "preempt"), die .. ": " .. chosen .. " / " .. why)
      t:ok(has(why, string.format("the die shows %d, M = 7 - 2 = 5: at most M, France debates", die)), why)
    else
      t:ok(has(chosen, "pass"), die .. ": " .. chosen .. " / " .. why)
      t:ok(has(why, "the die shows 6, M = 7 - 2 = 5: at most M, no debate"), why)
    end
    g:undo()
  end
end)

-- Rule: Step 5, the French bot's pass (21.5, L1822): France passes when it debated since it
-- last negotiated, its Military pile has gone to the draw pile (19.4), and fewer face-up
-- non-military cards lie on its display than French rounds remain, this one included.
-- Set-up: France's Round 1 turn with the pass offered and its Military pile apart; then, by
-- hand, its draw pile and Military pile emptied, so that its next fate die transfers the
-- pile (19.4), and the pass offered again in Round 2. Expected: in Round 1 it does not pass
-- (the pile has not gone); in Round 2, with at most four face-up cards against five rounds
-- left, it passes.
test("21.5 Step 5: France passes only once its Military pile has gone and its cards run short (L1822)", BIG, function(t)
  local g = game(t)
  play.to(g, "clash")
  play.stack(g, { FR = FRENCH_STACK, allies = ALLIED_STACK })
  play.round_turn_with_pass(g, "FR", 1, { ALL })
  g:move_card("napoleon", "removed")
  local chosen, why = choice(g)
  t:eq(chosen, "draw", why)
  t:ok(has(why, "21.5, Step 5: France debated since it last negotiated; its Military pile has not gone to the draw pile;"), why)
  t:ok(has(why, "against 6 French rounds left, this one included. Does it pass? No."), why)
  for _, what in ipairs({ "C", "C.up", "military" }) do
    for _, card in ipairs(g:zone("cdgsm.FR." .. what)) do
      g:move_card(card, "removed")
    end
  end
  g:act("draw")
  t:ok(g:vars().cdgsm.FR.transferred, "France's fate die found no draw pile: the Military pile has gone to it (19.4)")
  play.round_turn_with_pass(g, "FR", 2, { ALL })
  chosen, why = choice(g)
  t:eq(chosen, "pass", why)
  t:ok(has(why, "its Military pile has gone to the draw pile;") and has(why, "against 5 French rounds left, this one included. Does it pass? Yes."), why)
end)

-- Sets the units of `kind` in `box` to `n`, by hand.
local function set_units(g, box, kind, n)
  g:add_units(box, kind, n - g:units(box, kind))
end

-- Hand-builds the Front A battle of the fixture's game (France attacks Silesia: the Grande
-- Armée against the Armies of Silesia and Bohemia, no homeland nor mountain there): the
-- Grande Armée 11 French units and its Military Support marker, Silesia 5 Russian and 2
-- Prussian units and its marker, Bohemia 3 Austrian units; France's war cards in its hand.
local function front_a(g, hand)
  local boxes = {
    ["army.grande_armee"] = { FR = 11, FR_support = 1 },
    ["army.silesia"] = { RU = 5, PR = 2, SW = 0, RU_support = 1 },
    ["army.bohemia"] = { AU = 3, AU_support = 0 },
  }
  for box, kinds in pairs(boxes) do
    for kind, n in pairs(kinds) do
      set_units(g, box, kind, n)
    end
  end
  for _, card in ipairs(g:zone("hand.FR")) do
    g:move_card(card, "removed")
  end
  for _, card in ipairs(hand) do
    g:move_card(card, "hand.FR")
  end
end

-- Rule: Step 16 (21.10.2, L1912-L1918): the IBD is the Allied DRM (units, Military Support,
-- terrain, the situation card and every military card the Allies used) less the French DRM
-- (the same, with France's cards for this front); France plays cards, the IBD falling with
-- each, until it has none or the IBD is below -3. Set-up: the Front A battle built by hand
-- (above), the Coalition laying no card; France holds MURAT (+3), BERTHIER (+2) and GUARD
-- CORPS (+3). Expected: IBD = 10 Allied units (5 + 2 + 3) + 3 Allied Military Support + 3
-- the Generalissimo's headquarters (with one of the two) - 11 French units - 3 French Military
-- Support = 2, shown as that sum; France lays a +3 card (rows 2-3): 2 - 3 = -1, not below
-- -3, so the other: -1 - 3 = -4, below -3: it stops with the +2 left in hand.
test("21.10.2 the IBD is an explained sum; France lays cards until it falls below -3", BIG, function(t)
  local g = game(t)
  play.to(g, "battle_cards")
  t:eq(g:vars().war.battle.front, "A")
  front_a(g, { "murat", "berthier", "guard_corps" })
  t:ok(g:prompt().seat ~= "FR", "the Coalition lays first")
  g:act("done")
  t:eq(g:prompt().seat, "FR")
  local chosen, why = choice(g)
  t:ok(has(why, "21.10.2: the Initial Battle Differential: 10 units (Allies) + 3 Military Support (Allies) + 3 the Generalissimo's headquarters (Allies) − 11 units (France) − 3 Military Support (France) = 2 |"), why)
  local laid, steps = {}, 0
  while chosen ~= "done" and steps < 5 do
    t:ok(has(why, "the card with the largest DRM") and has(why, ": lay "), why)
    local card = g:prompt().actions[1].card
    for _, action in ipairs(g:prompt().actions) do
      if action.name .. " " .. tostring(action.card) == chosen or (action.card and has(chosen, action.card)) then
        card = action.card
        g:act(action.name, action.arg)
        break
      end
    end
    laid[#laid + 1] = card
    steps = steps + 1
    chosen, why = choice(g)
  end
  t:eq(#laid, 2, "two cards: " .. table.concat(laid, ", "))
  t:ok(not util.contains(laid, "berthier"), "the +2 stays in hand")
  t:ok(has(why, "= -4 | 21.10.2: the IBD -4 is below -3: France lays no more cards."), why)
end)

-- Rule: Step 15 (21.10.1, L1900-L1906): the IBD without cards, modified by the chart's rows;
-- "when the modified IBD is negative, France ... will never choose to withdraw. When the
-- modified IBD is positive ... [it] will always choose withdrawal" (L1904); at zero the die
-- decides (option french_bot.withdraw_zero: 4-6 withdraws). Set-up: by hand, Russia wins
-- and funds its Military Operation and places it with the Northern Army: on Front B the
-- Allies attack and France defends with the Army of Elbe; NAPOLEON is not in France's hand
-- and the Grande Armée is not there, so no row of the fixture's Step 15 applies. The units
-- on Front B are set so that the IBD is -1, +1 and 0 (each Military Support marker +3, each
-- unit +1). Expected: -1 fights, +1 withdraws, 0 rolls the die: 3 fights, 5 withdraws.
test("21.10.1 Step 15: France fights below zero, withdraws above it, and the die decides at zero (L1904)", BIG, function(t)
  local g = game(t)
  play.to(g, "spend")
  g:place("issue.mil_op_ru", "diplomacy", "RU-3")
  g:set_counter("resources.RU", 2)
  play.to_seat(g, "place_ops", "RU")
  g:act("place", "block.northern")
  play.to(g, function(game)
    local flow = game:json().flow
    return french("decide")(game) and flow[#flow].locals.key == "withdraw"
  end)
  t:eq(g:vars().war.battle.front, "B")
  g:move_card("napoleon", "removed")
  local northern, elbe = "army.northern", "army.elbe"
  local function front_b(allied, french_units)
    set_units(g, northern, "RU", allied)
    for _, kind in ipairs({ "PR", "SW", "RU_support" }) do
      set_units(g, northern, kind, 0)
    end
    set_units(g, elbe, "FR", french_units)
    set_units(g, elbe, "FR_support", 0)
  end
  front_b(4, 5)
  local chosen, why = choice(g)
  t:ok(has(why, "21.10.1, Step 15: the modified IBD: 4 units (Allies) − 5 units (France) = -1"), why)
  t:ok(has(why, "21.10.1, Step 15, row 1: the Grande Armée fights in this battle: does not apply."), why)
  t:eq(chosen, "choose false", why)
  t:ok(has(why, "the modified IBD is negative: France fights."), why)
  front_b(6, 5)
  chosen, why = choice(g)
  t:eq(chosen, "choose true", why)
  t:ok(has(why, "= 1 |") and has(why, "the modified IBD is positive: France withdraws."), why)
  front_b(5, 5)
  chosen, why = choice(g)
  t:ok(has(chosen, "chart_roll"), chosen .. " / " .. why)
  t:ok(has(why, "the modified IBD is zero: the die decides (4-6 withdraws)."), why)
  local roll = play.chart_roll(g, "FR")
  for _, case in ipairs({ { 3, "choose false", "fights" }, { 5, "choose true", "withdraws" } }) do
    g:act("chart_roll", roll.arg, { case[1] })
    chosen, why = choice(g)
    t:eq(chosen, case[2], why)
    t:ok(has(why, string.format("the modified IBD is zero; the die shows %d: France %s.", case[1], case[3])), why)
    g:undo()
  end
end)
