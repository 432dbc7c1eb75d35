-- Congress of Vienna's solitaire seatings (Playbook 19-23): the deal onto the displays, the
-- Wager and every play of the Diplomacy Phase from them, the War Phase's cards, the
-- reserves, the battle-card order, Fog of War, Handicap cards and the bots' chart dice.
-- Each test plays The Clash of Armies (turn 5, August 1813) with the test fixture's
-- placeholder owner data, the first legal action deciding whatever the test does not; a
-- test that needs particular cards stacks the deck and the hands by hand first, as a tester
-- would at the table (play.stack), and gives the fate die's faces (the fixture's die: 1 "C or
-- lowest-lettered", 2 "AB", 3 "DE", 4 "ABC", 5 "CDE", 6 "all except C").

local util = include("@lib/util.lua")
local play = include("tests/lib/play.lua")

local FIXTURE = "tests/owner-fixture.ron"
local ALL = 6

local game = play.game

-- The cards of a side's display: its spaces, face up or down, and its draw pile.
local function display_cards(g, side)
  local list = {}
  for _, what in ipairs({ "A", "A.down", "B", "B.down", "D", "D.down", "E", "E.down", "C.up", "C", "military" }) do
    for _, card in ipairs(g:zone("cdgsm." .. side .. "." .. what)) do
      list[#list + 1] = card
    end
  end
  return list
end

local function count_lines(g, text)
  return #play.lines(g, text)
end

-- Rule: the Coalition's single hand, the three Allied hand sizes less five (20.2 L1525, 21.2
-- L1785, 22.1 L1982, 23 L2013), less ten or nothing by option (20.13 #3, 21.12 #3); France's
-- normal hand (L1531, L1789); both laid out as displays (19.2) with the Leaders beside, the
-- Initial Phase's cards kept apart until the Wager is over (L1428). Set-up: the Clash
-- (hand sizes Russia 11, Britain 13, Austria 11, France 13), each seating, played to the
-- first Wager card. Expected: 11 + 13 + 11 - 5 = 30 cards on the Coalition's display (35
-- with minus-0, 25 with minus-10), 13 on France's, the Leaders beside them, and A-5's cards
-- still in the hands.
test("20.2 the Coalition's display holds 11 + 13 + 11 - 5 = 30 cards, France's 13", { instructions = 800000000, seconds = 40 },
  function(t)
    local cases = {
      { "solo-vs-allied-bot", nil, 30 }, { "solo-vs-french-bot", nil, 30 }, { "solo-fog-of-war", nil, 30 },
      { "solo-allied-power", { human = "RU" }, 30 },
      { "solo-vs-french-bot", { ["solitaire.coalition_cards"] = "minus-0" }, 35 },
      { "solo-vs-allied-bot", { ["solitaire.coalition_cards"] = "minus-10" }, 25 },
    }
    for _, case in ipairs(cases) do
      local g = game(t, case[1], case[2])
      play.to(g, "cdgsm_play")
      local label = case[1] .. " " .. tostring(case[3])
      t:eq(#display_cards(g, "allies"), case[3], label .. ": the Coalition's display")
      t:eq(#display_cards(g, "FR"), 13, label .. ": France's display")
      t:eq(g:zone("cdgsm.FR.beside"), { "napoleon" }, label)
      t:eq(#g:zone("cdgsm.allies.beside"), 3, label .. ": the three Allied Leaders")
      t:eq(count_lines(g, "The Coalition's cards: Russia 11 + Britain 13 + Austria 11 - "), 1, label)
      for power, card in pairs({ RU = "friedrich_wilhelm_iii", AU = "kolowrat", BR = "huskisson", FR = "gaudin" }) do
        t:ok(util.contains(g:zone("hand." .. power), card), label .. ": A-5's card waits in the hand: " .. card)
      end
    end
  end)

-- Plays the Wager from stacked displays: at the Initial Phase's last question (Austria at
-- War's place in the Clash) France is left `fr` alone, the Coalition the three Allied
-- cards; the fate die shows "all except C". Returns the game once the Wager is over.
local function wager(t, seating, fr, allied, order, options)
  local g = game(t, seating, options)
  play.to(g, "clash")
  play.stack(g, { FR = { fr }, allies = { allied.RU, allied.AU, allied.BR } })
  play.to(g, "cdgsm_play", { ALL })
  for _, power in ipairs(order) do
    local p = g:prompt()
    t:eq(p.seat, power, "the Wager's order")
    g:act("play", power == "FR" and fr or allied[power], { ALL })
  end
  return g
end

-- Rule: the solitaire Wager from the displays (19.3; 21.3 L1798: the Coalition's three cards
-- first, then France; 20.3 L1541: France first; 22.1 L1988: the person, then clockwise). Each card lies face down until all are
-- laid. An Allied winner places at the highest Allied value less France's (20.3 L1547, 21.3
-- L1804), not high - low; a tie goes to Britain, else Austria, else Russia, never France
-- (20.2 L1521). The Initial Phase's cards then join the displays (19.2). Set-up: France holds
-- FOUCHÉ (3) or DAVOUT (5), the Coalition BLÜCHER (5), VON GENTZ (2) and LORD LIVERPOOL (4).
-- Expected: Russia wins by 5 - 3 = 2 (high - low would give 3); France and Russia tied at 5:
-- Russia wins, at 0; the cards were secret until shown.
test("20/21 the Wager from the displays: order, secrecy, the solitaire distance and the tie order",
  { instructions = 800000000, seconds = 40 }, function(t)
    local allied = { RU = "blucher", AU = "gentz", BR = "liverpool" }
    local g = wager(t, "solo-vs-french-bot", "fouche", allied, { "BR", "RU", "AU", "FR" })
    t:eq(count_lines(g, "Russia wins the Wager by 2."), 1)
    t:eq(count_lines(g, "The Wager: France Fouché 3, Russia Blücher 5, Britain Lord Liverpool 4, Austria Von Gentz 2."), 1)
    t:eq(#play.lines(g, "You lay Blücher face down for the Wager.", "FR"), 0, "France does not read Russia's card")
    t:eq(#play.lines(g, "You lay Blücher face down for the Wager.", "RU"), 1)
    t:eq(count_lines(g, "The Coalition's Initial Phase cards after the Wager (19.2)"), 1)
    t:ok(not util.contains(g:zone("hand.RU"), "friedrich_wilhelm_iii"), "A-5's card left the hand after the Wager")

    g = wager(t, "solo-vs-french-bot", "davout", allied, { "BR", "RU", "AU", "FR" })
    t:eq(count_lines(g, "the Wager is tied; by the scenario's tie rule Russia wins it."), 1)
    t:eq(count_lines(g, "Russia wins the Wager by 0."), 1)

    g = wager(t, "solo-vs-allied-bot", "fouche", allied, { "FR", "BR", "RU", "AU" })
    t:eq(count_lines(g, "Russia wins the Wager by 2."), 1, "20: France lays first")

    -- 22 (L1988): the person first (here Austria), then clockwise from them: France, Russia,
    -- Britain.
    g = wager(t, "solo-allied-power", "fouche", allied, { "AU", "FR", "RU", "BR" }, { human = "AU" })
    t:eq(count_lines(g, "Russia wins the Wager by 2."), 1, "22: the person lays first")
  end)

-- Rule: 21.3 (L1804) when the French bot wins: its issue goes at the difference between the
-- highest Allied value wagered and its own, not at high - low as in the regular game (the
-- design note at L1806) nor as in 20 (L1547, France played by a person: high - low). 22
-- plays France by the French bot's rules (L1980; RULES-GAPS.md). Set-up: France DAVOUT (5);
-- the Coalition STEIN (3), VON GENTZ (2), LORD LIVERPOOL (4).
-- Expected: 21 and 22: France wins by 5 - 4 = 1; 20: by 5 - 2 = 3.
test("21.3 the French bot's Wager distance: its value less the highest Allied value",
  { instructions = 800000000, seconds = 40 }, function(t)
    local allied = { RU = "stein", AU = "gentz", BR = "liverpool" }
    local g = wager(t, "solo-vs-french-bot", "davout", allied, { "BR", "RU", "AU", "FR" })
    t:eq(count_lines(g, "The Wager: France Davout 5, Russia Stein 3, Britain Lord Liverpool 4, Austria Von Gentz 2."), 1)
    t:eq(count_lines(g, "France wins the Wager by 1."), 1, "21.3: 5 - 4")
    g = wager(t, "solo-allied-power", "davout", allied, { "AU", "FR", "RU", "BR" }, { human = "AU" })
    t:eq(count_lines(g, "France wins the Wager by 1."), 1, "22: the French bot's rule")
    g = wager(t, "solo-vs-allied-bot", "davout", allied, { "FR", "BR", "RU", "AU" })
    t:eq(count_lines(g, "France wins the Wager by 3."), 1, "20: France a person, high - low")
  end)

-- Plays to the first battle (Front A: the Grande Armée attacks the Armies of Silesia and
-- Bohemia in Silesia, the fixture's game) in a seating; returns the game at the first
-- seat's battle cards.
local function to_battle(t, seating, options)
  local g = game(t, seating, options)
  play.to(g, "battle_cards")
  return g
end

-- Rule: the order of the battle cards in solitaire (option solitaire.battle_cards): a bot
-- counts its opponent's cards (20.11.2 L1713, 21.10.2 L1914), so the side a person plays
-- lays first and its cards are shown before the bot's side lays; with "together" both lay
-- in secret, France first, as with four players. The Coalition lays from its one hand.
-- Set-up: the first battle (Front A) against the French bot (21). Expected: the Coalition
-- lays first, from its hand; its cards are shown before France is asked; with "together"
-- France is asked first and nothing is shown before both are done.
test("20.11.2/21.10.2 the person's side lays its battle cards first and they are shown", { instructions = 1500000000, seconds = 80 },
  function(t)
    local g = to_battle(t, "solo-vs-french-bot")
    local p = g:prompt()
    t:ok(p.seat ~= "FR", "the Coalition lays first: " .. tostring(p.seat))
    g:move_card("cossacks", "hand.allies")
    t:ok(string.find(table.concat(g:legal(), "; "), "cossacks", 1, true) ~= nil,
      "a card of the Coalition's hand is offered: " .. table.concat(g:legal(), "; "))
    g:act("lay", { card = "cossacks" })
    g:act("done")
    t:eq(g:prompt().seat, "FR", "then France")
    t:eq(count_lines(g, "The Coalition reveals Cossacks (-3)."), 1, "shown before France lays")

    g = to_battle(t, "solo-vs-french-bot", { ["solitaire.battle_cards"] = "together" })
    t:eq(g:prompt().seat, "FR", "together: France first")
    g:act("done")
    t:ok(g:prompt().seat ~= "FR")
    t:eq(count_lines(g, "reveals"), 0, "nothing shown before both are done")
  end)

-- Rule: Fog of War (23.1, L2021-L2031): after both sides have laid their cards, a side draws
-- one card from the draw deck for each military card it played (one if it played none),
-- and each goes (a) into the battle for the side, (b) else for the other side, (c) else to
-- the side's hand for a battle still to come, (d) else to the discard pile; nothing is
-- drawn from an empty deck (1); the next battle draws again (3). Who draws: both sides in
-- 23, the Allies alone against the Allied bot (20, L1719), France alone against the French
-- bot (21.10.2 L1920) and in 22 (L1996). Set-up: the Front A battle; by hand, a battle
-- still to come on Front G (the US Military Operation in the War of 1812 box), MURAT, NEY
-- and EUGÈNE in France's hand, and the deck stacked BERTHIER, BERNADOTTE, ANDREW JACKSON,
-- STEIN. France lays its three cards, the Allies none. Expected (23): France draws three:
-- Berthier (a, France's), Bernadotte (b, the Allies': Russia fights here), Andrew Jackson
-- (c, France's hand, Front G only); the Allies draw one: Stein (d). Against the French bot
-- only France draws; with an empty deck nobody does, as in the Front G battle that follows.
local function fog_battle(t, seating, deck, options)
  local g = to_battle(t, seating, options)
  g:place("issue.mil_op_us", "front.g", "war_of_1812")
  for _, card in ipairs({ "murat", "ney", "eugene" }) do
    g:move_card(card, "hand.FR")
  end
  for _, card in ipairs(g:zone("deck")) do
    g:move_card(card, "removed")
  end
  for i = #deck, 1, -1 do
    g:move_card(deck[i], "deck", "top")
  end
  for _ = 1, 2 do
    if g:prompt().seat == "FR" then
      for _, card in ipairs({ "murat", "ney", "eugene" }) do
        g:act("lay", { card = card })
      end
    end
    g:act("done")
  end
  return g
end

test("23.1 Fog of War: each branch, and who draws in each seating", { instructions = 2000000000, seconds = 100 }, function(t)
  local deck = { "berthier", "bernadotte", "andrew_jackson", "stein" }
  local g = fog_battle(t, "solo-fog-of-war", deck)
  t:eq(count_lines(g, "Fog of War (23.1): France draws 3 cards (3 military cards played)."), 1)
  t:eq(count_lines(g, "Fog of War (a): Berthier, played for France in this battle."), 1)
  t:eq(count_lines(g, "Fog of War (b): Bernadotte, played for the Allies in this battle."), 1)
  t:eq(count_lines(g, "Fog of War (c): Andrew Jackson, into France's hand for a battle still to come."), 1)
  t:eq(count_lines(g, "Fog of War (23.1): the Allies draw 1 card (0 military cards played)."), 1)
  t:eq(count_lines(g, "Fog of War (d): Stein, discarded."), 1)
  t:ok(util.contains(g:zone("hand.FR"), "andrew_jackson"), "Andrew Jackson waits in France's hand")
  t:ok(#play.lines(g, "Berthier") >= 2 and #play.lines(g, "Bernadotte") >= 2, "both count in the battle")
  -- The same again in the next battle (3), Front G's: the deck is empty now (1).
  play.to(g, function(game)
    return game:state() == "battle_cards" and game:vars().war.battle.front == "G"
  end)
  g:act("done")
  g:act("done")
  t:eq(count_lines(g, "Fog of War (23.1): the draw deck is empty; France draws nothing."), 1, "the next battle")

  g = fog_battle(t, "solo-vs-french-bot", deck)
  t:eq(count_lines(g, "Fog of War (23.1): France draws 3 cards"), 1, "21: France draws")
  t:eq(count_lines(g, "the Allies draw"), 0, "21: the Allies do not")

  g = fog_battle(t, "solo-vs-allied-bot", deck)
  t:eq(count_lines(g, "Fog of War (23.1): the Allies draw 1 card (0 military cards played)."), 1, "20: the Allied bot draws")
  t:eq(count_lines(g, "France draws"), 0, "20: France does not")

  g = fog_battle(t, "solo-allied-power", deck, { human = "AU" })
  t:eq(count_lines(g, "Fog of War (23.1): France draws 3 cards"), 1, "22: France draws")
  t:eq(count_lines(g, "the Allies draw"), 0, "22: the Allies do not (L1996)")

  g = fog_battle(t, "solo-fog-of-war", {})
  t:eq(count_lines(g, "Fog of War (23.1): the draw deck is empty; France draws nothing."), 1)
end)

local lay = play.lay

-- The fixture's Clash played to its first Diplomacy Round in 23 (every power a person's),
-- from stacked displays: France holds three neutral cards and Fouché, the Coalition eight
-- Allied cards; every Wager card is the first offered, the fate die showing "all except C".
local FRENCH_STACK = { "card_62", "event_61", "unidentified_1", "poniatowski", "fouche" }
local ALLIED_STACK = { "liverpool", "gentz", "yorck", "stein", "bexley", "graham", "scharnhorst", "hardenberg" }

local function to_rounds(t, seating, options)
  local g = game(t, seating or "solo-fog-of-war", options)
  play.to(g, "clash")
  play.stack(g, { FR = FRENCH_STACK, allies = ALLIED_STACK })
  play.to(g, "round_turn", { ALL })
  return g
end

-- Rule: a debate from a display (19.3, the note L1442): once declared it goes ahead, with the
-- card the fate die gives; France's pre-emptive debate (16.2) needs a French card: when the
-- die gives none, it fails, is not counted, and the debate window opens as if France had not
-- spoken; with one, it is carried out and counted. Set-up: 23; at the first round turn,
-- France's display laid by hand (Card #61 in A, Unidentified card 1 in B, Poniatowski in D,
-- Fouché, its only French card, on top of the draw pile); the power to play negotiates with
-- a card the die gives. Expected: a pre-empt on "AB" fails (0 of 2 used); France then
-- declares a debate and is offered only cards to play (no way back), and debates; in a
-- second game a pre-empt on "CDE" turns up Fouché and is counted.
test("19.3 a declared debate goes ahead; France's pre-empt needs a French card", { instructions = 2000000000, seconds = 100 },
  function(t)
    for _, case in ipairs({ { die = 2, fails = true }, { die = 5, fails = false } }) do
      local g = to_rounds(t)
      local player = g:prompt().seat
      t:ok(player ~= "FR", "another power plays first: " .. tostring(player))
      lay(g, "FR", { A = "event_61", B = "unidentified_1", D = "poniatowski", E = false, C = { "fouche" } })
      g:act("negotiate", nil, { ALL })
      if g:state() == "cdgsm_play" and util.contains(g:legal(), "save_none") then
        g:act("save_none")
      end
      local first = g:prompt().actions[1]
      g:act(first.name, first.arg)
      local issue = g:prompt().actions[1]
      g:act(issue.name, issue.arg)
      t:eq(g:state(), "preempt", "France is offered a pre-empt first")
      g:act("preempt", nil, { case.die })
      if case.fails then
        t:eq(count_lines(g, "France's fate die gives no French card: the pre-empt fails and is not counted."), 1)
        t:eq(g:vars().diplomacy.preempts, 0)
        t:eq(g:state(), "debate")
        while g:prompt().seat ~= "FR" do
          g:act("pass")
        end
        g:act("debate", { power = "FR" }, { ALL })
        t:eq(count_lines(g, "France declares a debate."), 1)
        for _, action in ipairs(g:prompt().actions) do
          t:eq(action.name, "play", "no way back once declared")
        end
        local card = g:prompt().actions[1].arg
        g:act("play", card)
        t:eq(#play.lines(g, "France debates with"), 1)
      else
        t:eq(g:legal(), { "play fouche" }, "only its French card")
        g:act("play", "fouche")
        t:eq(count_lines(g, "France pre-empts the debate (pre-empt 1 of 2)."), 1)
        t:eq(g:vars().diplomacy.preempts, 1)
        t:eq(count_lines(g, "France debates with Fouché"), 1)
      end
    end
  end)

-- Rule: trades between displays (16.2 Round 1; 19.3; 23 plays them as four players, L2015;
-- against a bot only France starts one, 20.6 L1587, 21.7 L1850). The card offered lies face
-- down; the other power accepts and its fate die gives the card it lays in return; each card
-- goes to the other side as the Initial Phase's cards do (option cdgsm.trade_card, like-
-- initial) or face up on top of the draw pile (top-face-up); only the two powers read the
-- names. A bot that may trade rolls its fate die first and then chooses (21.5, option
-- cdgsm.bot_roll). Set-up: 23, France's first round turn, from the stacked displays.
-- Expected: the exchange is told to France and Russia only; Russia's card is on France's
-- side and France's on the Coalition's (face up on top of the Coalition's pile with
-- top-face-up). Against the French bot France rolls first (draw), declares with
-- cdgsm.bot_roll=declare, and no Allied power is offered a trade.
test("16.2/19.3 a trade between the displays, and who may start one", { instructions = 2000000000, seconds = 100 }, function(t)
  local function france_trades(options)
    local g = game(t, "solo-fog-of-war", options)
    play.to(g, "clash")
    play.stack(g, { FR = FRENCH_STACK, allies = ALLIED_STACK })
    play.to_seat(g, "round_turn", "FR", { ALL })
    g:act("trade", "RU", { ALL })
    local offered = g:prompt().actions[1].arg
    g:act("play", offered)
    local answer = play.first_card(g, ALL, "choose", true)
    return g, offered, answer
  end
  local g, offered, answer = france_trades()
  t:eq(count_lines(g, "Russia accepts: the two powers exchange a card face down."), 1)
  t:eq(#play.lines(g, "You gave", "FR"), 1, "told to France")
  t:eq(#play.lines(g, "You received", "RU"), 1, "told to Russia")
  t:eq(#play.lines(g, "You gave", "AU") + #play.lines(g, "You received", "AU"), 0, "not to Austria")
  t:ok(util.contains(display_cards(g, "allies"), offered), "France's card is on the Coalition's side")
  t:ok(util.contains(display_cards(g, "FR"), answer), "Russia's card is on France's side")

  g, offered = france_trades({ ["cdgsm.trade_card"] = "top-face-up" })
  t:eq(g:zone("cdgsm.allies.C.up"), { offered }, "face up on top of the Coalition's draw pile")

  local bot = to_rounds(t, "solo-vs-french-bot")
  play.to_seat(bot, "round_turn", "FR", { ALL })
  t:ok(util.contains(bot:legal(), "draw"), "the French bot rolls first: " .. table.concat(bot:legal(), "; "))
  local declared = to_rounds(t, "solo-vs-french-bot", { ["cdgsm.bot_roll"] = "declare" })
  play.to_seat(declared, "round_turn", "FR", { ALL })
  t:ok(util.contains(declared:legal(), "negotiate") and util.contains(declared:legal(), "trade RU"),
    "declared first: " .. table.concat(declared:legal(), "; "))
  play.to_seat(declared, "round_turn", "RU", { ALL })
  for _, action in ipairs(declared:legal()) do
    t:ok(not string.find(action, "^trade"), "the Allies start no trade: " .. action)
  end
end)

-- Rule: the War Phase's cards (19.5, L1462): each side's possibly usable military cards, on
-- its display, in its Military pile and its draw pile, go to the War Phase; the Leaders go
-- back to their powers. Set-up: the Clash against the French bot, played to the Government
-- Phase. Expected: both displays are empty; France's military cards are in France's hand and
-- the Coalition's in its hand; the log says how many each takes, and only a side's seats read
-- their names.
test("19.5 the War Phase's cards of each side", { instructions = 2000000000, seconds = 100 }, function(t)
  local g = game(t, "solo-vs-french-bot")
  play.to_phase(g, "Government Phase")
  t:eq(#display_cards(g, "FR") + #display_cards(g, "allies") + #g:zone("cdgsm.FR.beside") + #g:zone("cdgsm.allies.beside"), 0,
    "the displays are cleared")
  local taken = play.lines(g, "possibly usable military card")
  t:eq(#taken, 2, table.concat(taken, " / "))
  t:ok(string.find(taken[1], "^France takes") and string.find(taken[2], "^The Coalition takes"), table.concat(taken, " / "))
  t:eq(#play.lines(g, "Your military cards for the War Phase (19.5)", "FR"), 1)
  t:eq(#play.lines(g, "Your military cards for the War Phase (19.5)", "RU"), 1)
  for _, leader in ipairs({ "alexander", "metternich", "castlereagh", "napoleon" }) do
    local zone = g:json().zones
    local found
    for id, z in pairs(zone) do
      for _, card in ipairs(z.cards or {}) do
        if card == leader then
          found = id
        end
      end
    end
    t:ok(found == nil or not string.find(found, "^cdgsm"), leader .. " is not left beside a display: " .. tostring(found))
  end
end)

-- Rule: the bots' reserves (20.9 Step 12, L1655-L1659; 21.8.2, L1872): a power a bot plays
-- keeps its new units in its capital and places them during strategic movement, which it
-- may not end before they are placed; they do not count against its moves (a reading).
-- Set-up: the Clash against the French bot; at the Government Phase two new French units are
-- put in Paris by hand. Expected: France may keep them ("keep"), none is placed in the
-- Government Phase, and in strategic movement France places both before it may be done.
test("21.8.2 the Paris Reserve is placed in strategic movement", { instructions = 2000000000, seconds = 100 }, function(t)
  local g = game(t, "solo-vs-french-bot")
  play.to_phase(g, "Government Phase")
  g:add_units("reserve.FR", "FR", 2)
  play.to_seat(g, "new_units", "FR")
  t:ok(util.contains(g:legal(), "keep"), table.concat(g:legal(), "; "))
  g:act("keep")
  t:eq(g:units("reserve.FR", "FR"), 2, "kept in Paris")
  play.to_seat(g, "strategic", "FR")
  local legal = table.concat(g:legal(), "; ")
  t:ok(string.find(legal, "reserve", 1, true) ~= nil and not util.contains(g:legal(), "done"), legal)
  local placed = 0
  while g:units("reserve.FR", "FR") > 0 do
    local action = g:prompt().actions[1]
    t:eq(action.name, "reserve")
    g:act(action.name, action.arg)
    placed = placed + 1
  end
  t:eq(placed, 2)
  t:eq(count_lines(g, "of its reserve with"), 2)
end)

-- Rule: the dice of a bot's chart are rolled by the rules (20.7.b, 21.6.2, 21.10.1): in a
-- decision of a power a bot plays, "chart_roll" rolls the chart's die once, a die of the
-- table (given by a test, asked of the person with physical dice), and the same decision is
-- asked again with the roll kept for the bot. Set-up: the Clash against the French bot, the
-- first debate window France is asked in. Expected: France is offered the roll (a person's
-- power is not); after a 3 the window asks France again, with the 3 kept and no second roll
-- offered; with physical dice the roll waits for the die.
test("the rules roll a bot's chart die (21.6.2)", { instructions = 2000000000, seconds = 100 }, function(t)
  local g = game(t, "solo-vs-french-bot")
  play.to(g, function(game)
    local p = game:prompt()
    return p ~= nil and (game:state() == "debate" or game:state() == "preempt") and p.seat == "FR"
  end)
  local roll = play.chart_roll(g, "FR")
  t:ok(roll ~= nil, "France is offered its chart's die: " .. table.concat(g:legal(), "; "))
  g:set_dice("physical")
  local ok, why = g:try("chart_roll", roll.arg)
  t:ok(not ok and string.find(why, "die", 1, true) ~= nil, "with physical dice it waits: " .. tostring(why))
  g:set_dice("digital")
  g:act("chart_roll", roll.arg, { 3 })
  t:eq(g:prompt().seat, "FR", "France is asked again")
  t:eq(g:json().flow[#g:json().flow].locals.chart_dice, { FR = 3 })
  t:ok(not string.find(table.concat(g:legal(), "; "), "chart_roll", 1, true), "rolled once")
  t:eq(count_lines(g, "Rolled d6 for France's chart (21.6.2): 3"), 1)
end)

-- Rule: Austria at War against the French bot (21.7, L1858): when Austria goes to war, the
-- Austrian Military Operation is placed on Austria at War's space at the end of the
-- Diplomacy Phase, and Austria pays a Resource for it. Set-up: the Clash; at the last turn
-- of Round 6, by hand, Austria at War on Russia 3, the Austrian Military Operation waiting on
-- the display, and both displays emptied so that the last power can only pass. Expected:
-- against the French bot the Austrian Military Operation stands on Russia 3 and its cost is
-- paid in the Government Phase; with four players it stays on the display.
test("21.7 the Austrian Military Operation goes with Austria at War", { instructions = 2000000000, seconds = 100 }, function(t)
  local function end_of_phase(seating)
    local g = game(t, seating)
    play.to(g, function(game)
      local d = game:vars().diplomacy or {}
      return game:state() == "round_turn" and d.round == 6 and d.order ~= nil and game:prompt().seat == d.order[#d.order]
    end)
    g:place("issue.austria_at_war", "diplomacy", "RU-3")
    g:place("issue.mil_op_au", "diplomacy", "display")
    for _, zone in ipairs({ "hand.FR", "hand.RU", "hand.AU", "hand.BR" }) do
      for _, card in ipairs(g:zone(zone)) do
        g:move_card(card, "removed")
      end
    end
    for _, side in ipairs({ "FR", "allies" }) do
      for _, what in ipairs({ "A", "A.down", "B", "B.down", "D", "D.down", "E", "E.down", "C.up", "C", "military", "beside" }) do
        for _, card in ipairs(g:zone("cdgsm." .. side .. "." .. what)) do
          g:move_card(card, "removed")
        end
      end
    end
    g:act("pass")
    return g
  end
  local g = end_of_phase("solo-vs-french-bot")
  t:eq({ g:space_of("issue.mil_op_au") }, { "diplomacy", "RU-3" })
  t:eq(count_lines(g, "Austria goes to war: the Austrian Military Operation is placed with Austria at War, on Russia 3"), 1)
  play.to(g, function(game)
    return #play.lines(game, "Austria pays 1 Resource for the Austrian Military Operation of 21.7.") > 0
  end)
  g = end_of_phase("four-players")
  t:eq({ g:space_of("issue.mil_op_au") }, { "diplomacy", "display" }, "four players")
end)

-- Rule: Handicap cards (21.12 #2, L1954-L1960; 20.13 #2): dealt to the French bot at the start
-- of each turn, each used at its time (H-1 after the Initial Phase, L1947: a minor ally that
-- gives France a unit, at France 2; the fixture's H-3 at the Government Phase, a card; H-5
-- at the War Phase, a unit and an instruction by hand), all shuffled back at the end of the
-- turn, or set aside with solitaire.handicap_used=discard. Set-up: the Clash against the
-- French bot with three Handicap cards a turn. Expected: France holds all three; H-1 offers
-- only French minor allies that give a unit and puts the chosen one on France 2; H-3 gives a
-- card, H-5 a unit in Paris; at the end of the turn they go back into the deck (or are
-- set aside, and the next turn's deal shuffles them back in).
test("21.12 Handicap cards are dealt, used at their time and shuffled back", { instructions = 2000000000, seconds = 100 },
  function(t)
    for _, used in ipairs({ "reshuffle", "discard" }) do
      -- The count as a number in one game, as the command line gives `solitaire.handicap=3`.
      local count = used == "reshuffle" and 3 or "3"
      local g = game(t, "solo-vs-french-bot", { ["solitaire.handicap"] = count, ["solitaire.handicap_used"] = used })
      play.to(g, function(game)
        return game:state() == "decide" and game:vars() and string.find(game:prompt().text, "Handicap H-1", 1, true) ~= nil
      end)
      t:eq(#g:zone("handicap.FR"), 3)
      for _, action in ipairs(g:prompt().actions) do
        t:ok(util.contains({ "issue.italy", "issue.naples", "issue.bavaria", "issue.norway", "issue.saxony", "issue.holland",
          "issue.hanover", "issue.savoy" }, action.arg), "a French minor ally: " .. tostring(action.arg))
      end
      local pick = g:prompt().actions[1].arg
      g:act("choose", pick)
      t:eq({ g:space_of(pick) }, { "diplomacy", "FR-2" })
      play.to(g, "vp_summary")
      t:eq(count_lines(g, "Handicap H-3: France draws 1 card."), 1)
      t:eq(count_lines(g, "Handicap H-5: 1 French unit to Paris"), 1)
      t:ok(#play.lines(g, "A placeholder instruction of the test fixture") >= 1, "H-5's words by hand")
      g:act("done")
      if used == "reshuffle" then
        t:eq(count_lines(g, "The 3 Handicap cards of the turn are shuffled back into the Handicap deck."), 1)
      else
        t:eq(count_lines(g, "The 3 Handicap cards of the turn are set aside (21.12)."), 1)
        t:eq(count_lines(g, "The Handicap cards set aside are shuffled into a new Handicap deck (21.12)."), 1,
          "the next turn's deal takes them back")
      end
      t:eq(#g:zone("handicap.FR"), 3, "the next turn's cards")
    end
  end)

-- Rule: 21.12's example (L1949): the French bot draws H-1 and "chooses randomly from one of
-- the Minor Allies that provides a military unit to France", placing it at France 2 (the
-- random choice among equals also L1557, L1816). Set-up: the Clash against the French bot
-- with three Handicap cards a turn (the fixture's whole deck: H-1 among them), at seeds 1 to 8;
-- the bot chooses. Expected: each time a French minor ally that gives a unit, chosen at
-- random among those of Table 21.4's best rank (its reason says so), not always the same
-- one; the choice lands on France 2.
test("21.12 example: the French bot chooses H-1's minor ally at random", { instructions = 4000000000, seconds = 200 },
  function(t)
    local chosen = {}
    for seed = 1, 8 do
      local g = t:game { scenario = "clash-of-armies", overlay = FIXTURE, seed = seed,
        options = { seating = "solo-vs-french-bot", ["solitaire.handicap"] = "3" } }
      play.to(g, function(game)
        return game:state() == "decide" and string.find(game:prompt().text, "Handicap H-1", 1, true) ~= nil
      end)
      local offered = {}
      for _, action in ipairs(g:prompt().actions) do
        offered[#offered + 1] = action.arg
      end
      local choice, reasons = g:bot_choice("french_bot", "FR")
      local piece = string.match(choice, "^choose (.+)$")
      t:ok(util.contains(offered, piece), "seed " .. seed .. ": an offered minor ally: " .. tostring(piece))
      if #offered > 1 then
        t:ok(string.find(table.concat(reasons, " "), "at random", 1, true) ~= nil, "seed " .. seed .. ": " .. table.concat(reasons, " | "))
      end
      chosen[piece] = true
      g:act("choose", piece)
      t:eq({ g:space_of(piece) }, { "diplomacy", "FR-2" })
    end
    local distinct = 0
    for _ in pairs(chosen) do
      distinct = distinct + 1
    end
    t:ok(distinct >= 2, "eight seeds give more than one minor ally: " .. distinct)
  end)

-- Rule: the Enhanced French bot (21.12 #4, L1964-L1966, option solitaire.enhanced_french_bot):
-- while France's Card Hand Size is 12 or less and France does not lead in VP, once its
-- Military pile has gone to its draw pile, a French military character card the French bot
-- plays goes under its draw pile instead of the discard pile. Set-up: the Clash against the
-- French bot, option on; France's hand size 12 and Russia ahead in VP (by hand); France's
-- display stacked with Marmont, Oudinot and Murat, which runs out at the Wager. Expected:
-- Murat, negotiated by France, lies under France's draw pile.
test("21.12 the Enhanced French bot keeps its military cards for the War Phase", { instructions = 2000000000, seconds = 100 },
  function(t)
    local g = game(t, "solo-vs-french-bot", { ["solitaire.enhanced_french_bot"] = "on" })
    play.to(g, "clash")
    g:set_counter("hand_size.FR", 12)
    g:set_counter("vp.RU", g:counter("vp.FR") + 5)
    play.stack(g, { FR = { "marmont", "oudinot", "murat" }, allies = ALLIED_STACK })
    play.to_seat(g, "round_turn", "FR", { ALL })
    lay(g, "FR", { A = "murat" })
    play.to_seat(g, "negotiation", "FR", { ALL })
    t:eq(g:vars().cdgsm.FR.transferred, true, "France's Military pile has gone to its draw pile")
    if g:json().flow[#g:json().flow].locals.card == "murat" then
      local issue = g:prompt().actions[1]
      g:act(issue.name, issue.arg)
      t:eq(count_lines(g, "The Enhanced French bot keeps Murat: it goes under France's draw pile (21.12)."), 1)
      local pile = g:zone("cdgsm.FR.C")
      t:eq(pile[#pile], "murat")
    else
      t:ok(false, "France played " .. tostring(g:json().flow[#g:json().flow].locals.card))
    end
  end)

-- Rule: a bot's extra card from its chart (20.1.1, L1502-L1507; 21.1.1, L1771-L1779): when
-- the Environment Table gives a power a Playbook bot plays its extra card, 2d6 on its chart
-- (Table 21.1; Table 20.1.1 by the political status) give the card, rolled again while the
-- card is not in the deck or the discard pile. Set-up: the Clash, turn 5 (A-5: +1 on both
-- Environment rolls, the Armistice in effect); the first Environment roll 5 (column 6,
-- France) against the French bot, 1 (column 2, Britain) against the Allied bot; the chart's
-- dice 3 + 4, with the fixture's placeholder chart (21.1's 7: Eugène; 20.1.1's armistice/7:
-- Bellegarde); in a second game Eugène is out of the game, and the next roll, 2 + 2,
-- gives Caulaincourt. Expected: the bot's power takes the chart's card, kept apart until the
-- Wager like every Initial Phase card.
test("20.1.1/21.1 a bot's extra card comes from its chart", { instructions = 800000000, seconds = 40 }, function(t)
  local g = game(t, "solo-vs-french-bot")
  g:act("begin", nil, { 5, 1, 3, 4 })
  t:eq(count_lines(g, "21.1, 7: France takes Eugène de Beauharnais."), 1)
  t:ok(util.contains(g:zone("hand.FR"), "eugene") and g:vars().initial_cards.eugene, "in France's hand, apart")

  g = game(t, "solo-vs-french-bot")
  g:move_card("eugene", "removed")
  g:act("begin", nil, { 5, 1, 3, 4, 2, 2 })
  t:eq(count_lines(g, "21.1, 7: Eugène de Beauharnais is not in the draw deck or the discard pile; the dice are rolled again."), 1)
  t:eq(count_lines(g, "21.1, 4: France takes Caulaincourt."), 1)

  g = game(t, "solo-vs-allied-bot")
  g:act("begin", nil, { 1, 1, 3, 4 })
  t:eq(count_lines(g, "20.1.1, the Armistice, 7: Britain takes Bellegarde."), 1)
end)

-- Rule: the restrictions of [20.8] and [21.7.1], read as 18.2.4's table (L1569, L1852,
-- L1146-L1166): against a bot only Austria of the Allies negotiates the Peace Congress; in
-- 23 the four-player rules hold. Set-up: the first Russian round turn from the stacked
-- displays, the Peace Congress put on the Negotiation Table by hand. Expected: against the
-- French bot Russia is not offered the Peace Congress; in 23 it is.
test("20.8/21.7.1 the 18.2.4 restrictions bind the Allies against a bot", { instructions = 2000000000, seconds = 100 },
  function(t)
    for _, case in ipairs({ { "solo-vs-french-bot", false }, { "solo-fog-of-war", true } }) do
      local g = to_rounds(t, case[1])
      play.to_seat(g, "round_turn", "RU", { ALL })
      g:place("issue.peace_congress", "diplomacy", "table")
      local card = play.negotiate_first_card(g, ALL)
      t:eq(g:state(), "negotiation")
      local offered = false
      for _, action in ipairs(g:prompt().actions) do
        offered = offered or action.piece == "issue.peace_congress"
      end
      t:eq(offered, case[2], case[1])
    end
  end)
