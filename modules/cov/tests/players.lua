-- Congress of Vienna with two and three players (Playbook 18.2 and 18.3): one person plays
-- several powers from one hand. The Clash of Armies (August 1813, the Armistice), with the
-- test fixture of owner data; the first legal action plays everything the test does not decide itself.

local util = include("@lib/util.lua")
local play = include("tests/lib/play.lua")

local FIXTURE = "tests/owner-fixture.ron"

local function game(t, seating, scenario)
  return t:game { scenario = scenario or "clash-of-armies", overlay = FIXTURE, options = { seating = seating } }
end

-- The cards of a hand that count toward its size: no Leaders, no Initial Phase cards.
local function dealt(g, zone)
  local initial = g:vars().initial_cards or {}
  return util.filter(play.non_leaders(g, zone), function(card)
    return not initial[card]
  end)
end

-- Puts `cards` into a hand in place of as many of its dealt cards, which go to the deck.
local function swap_in(g, zone, cards)
  local out = util.filter(dealt(g, zone), function(card)
    return not util.contains(cards, card)
  end)
  for i = 1, #cards do
    if not util.contains(g:zone(zone), cards[i]) then
      g:move_card(out[i], "deck")
    end
  end
  for _, card in ipairs(cards) do
    g:move_card(card, zone)
  end
end

-- The first action offered to `seat` now.
local function first_of(g, seat)
  for _, ask in ipairs(g:prompt().asks) do
    if ask.seat == seat then
      return ask.actions[1]
    end
  end
  error(seat .. " is not asked")
end

local function args(ask)
  local list = {}
  for _, action in ipairs(ask.actions) do
    list[#list + 1] = action.arg
  end
  return list
end

-- Rule: 18.2.1. The Allied player, on the British chair, holds every Allied card: a deck of
-- the three Allied hand sizes less five, and a hand drawn from it of 11 in Limited War, 12
-- in the Armistice, 13 in General War. The Clash of Armies' set-up gives Russia 11,
-- Britain 13 and Austria 11 (L785): 35 - 5 = 30, and a hand of 12.
test("18.2.1 the Allied deck and hand", { instructions = 400000000, seconds = 20 }, function(t)
  local g = game(t, "two-players")
  play.to(g, "wager")
  t:eq(#play.lines(g, "The Allied deck: Russia 11 + Britain 13 + Austria 11 - 5 = 30 cards (18.2.1)."), 1)
  t:eq(g:zone("hand.RU"), {})
  t:eq(g:zone("hand.AU"), {})
  for _, leader in ipairs({ "alexander", "metternich", "castlereagh" }) do
    t:ok(util.contains(g:zone("hand.BR"), leader), leader .. " is in the Allied hand")
  end
  t:eq(#dealt(g, "hand.BR"), 12)
  t:eq(#g:zone("deck.allied"), 30 - 12)
  t:eq(#dealt(g, "hand.FR"), 13, "France is dealt its own hand size")
  play.to_phase(g, "Government Phase")
  t:eq(g:zone("deck.allied"), {}, "the Allied deck is used up or taken into the hand by the end of the phase")
end)

-- Rule: 18.2.1 and 18.3 in Spring 1813, whose set-up gives Russia 12, Britain 12 and
-- Austria 11 (L661).
test("18.2.1 and 18.3 the deals of May 1813", { instructions = 400000000, seconds = 20 }, function(t)
  local g = game(t, "two-players", "napoleon-resurgent")
  play.to(g, "wager")
  -- Printed: "34 cards less 5 = 29" (L1121), from 10 + 1 + 10 + 2 + 10 + 1 = 34; the
  -- set-up's own hand sizes sum to 12 + 12 + 11 = 35, and 35 - 5 = 30.
  t:eq(#play.lines(g, "The Allied deck: Russia 12 + Britain 12 + Austria 11 - 5 = 30 cards (18.2.1)."), 1)
  t:eq(#dealt(g, "hand.BR"), 11, "Limited War: a hand of 11")
  g = game(t, "three-players", "napoleon-resurgent")
  play.to(g, "wager")
  -- Printed: "11 + 1 + 11 + 1 = 22 - 4 = 18" (L1202); those terms sum to 24 (24 - 4 = 20),
  -- and the set-up's own hand sizes give 12 + 11 - 4 = 19.
  t:eq(#play.lines(g, "Russia and Austria, one player, one hand: Russia 12 + Austria 11 - 4 = 19 cards (18.3)."), 1)
  t:eq(#dealt(g, "hand.RU"), 19)
end)

-- Rule: 18.2.2. The Allied player lays three cards, one for each power, one after the other;
-- an Allied winner places its issue at its value less France's, France at its value less
-- the lowest Allied card. After the Wager the hand fills up again from the Allied deck.
test("18.2.2 the two-player Wager", { instructions = 400000000, seconds = 20 }, function(t)
  local cases = {
    -- France SOULT 4; Russia DAVOUT 5, Britain MORILLO 2, Austria STADION 4: Russia wins
    -- at 5 - 4 = 1 (the four-player rule, high - low, would give 3).
    { fr = "soult", allied = { "davout", "morillo", "stadion" }, winner = "Russia", where = "Russia 1" },
    -- France DAVOUT 5; Russia SOULT 4, Britain MORILLO 2, Austria STADION 4: France wins at
    -- 5 - 2 = 3.
    { fr = "davout", allied = { "soult", "morillo", "stadion" }, winner = "France", where = "France 3" },
  }
  for _, case in ipairs(cases) do
    local g = game(t, "two-players")
    play.to(g, "wager")
    swap_in(g, "hand.FR", { case.fr })
    swap_in(g, "hand.BR", case.allied)
    local deck_before = #g:zone("deck.allied")
    local p = g:prompt()
    t:eq(#p.asks, 2)
    t:eq(p.asks[2].seat, "BR")
    t:ok(string.find(p.asks[2].actions[1].label, "As Russia: Wager", 1, true), p.asks[2].actions[1].label)
    g:act_as("FR", "wager", case.fr)
    g:act_as("BR", "wager", case.allied[1])
    for i, power in ipairs({ "Britain", "Austria" }) do
      p = g:prompt()
      t:eq(#p.asks, 1)
      t:eq(p.asks[1].seat, "BR")
      t:ok(string.find(p.asks[1].actions[1].label, "As " .. power .. ": Wager", 1, true), p.asks[1].actions[1].label)
      t:ok(not util.contains(args(p.asks[1]), case.allied[i]), "a laid card is not offered again")
      g:act_as("BR", "wager", case.allied[i + 1])
    end
    t:eq(g:state(), "free_issue")
    t:ok(string.find(g:prompt().text, "put an available issue on " .. case.where .. ".", 1, true), g:prompt().text)
    t:eq(#play.lines(g, case.winner .. " wins the Wager by"), 1)
    -- The Initial Phase's cards join the hand after the Wager; the hand fills up to 12
    -- only if fewer than three joined it, and may stay above 12 otherwise (18.2.2).
    local joined = 0
    for _, card in ipairs(g:zone("hand.BR")) do
      if g:vars().initial_cards[card] then
        joined = joined + 1
      end
    end
    t:eq(#play.non_leaders(g, "hand.BR"), math.max(12, 12 - 3 + joined))
    t:eq(#g:zone("deck.allied"), deck_before - math.max(0, 3 - joined))
    t:eq(g:private("BR").wager, nil)
  end
end)

-- Rule: 18.2.3 and 18.2.4. France offers each Allied power one trade a phase; Austria leaves
-- the Recruitment and Military Operation issues of the others, the Armistice and Austria at
-- War alone until Austria at War is in effect; only Austria negotiates the Peace Congress.
test("18.2.3-18.2.4 the two-player restrictions", { instructions = 800000000, seconds = 40 }, function(t)
  local g = game(t, "two-players")
  play.to(g, function(game)
    local p = game:prompt()
    return game:state() == "selection" and string.find(p.text, "As Austria", 1, true) ~= nil
  end)
  local offered = args(g:prompt())
  for _, issue in ipairs({ "recruit_fr", "recruit_ru", "recruit_br", "mil_op_fr", "mil_op_ru", "armistice", "austria_at_war" }) do
    t:ok(not util.contains(offered, "issue." .. issue), "Austria is not offered " .. issue)
  end
  local ok, why = g:try("select", "issue.recruit_fr")
  t:eq(ok, false)
  t:ok(string.find(why, "not a legal action", 1, true), why)
  g:place("issue.peace_congress", "diplomacy", "table")
  play.to(g, function(game)
    return game:state() == "round_turn" and game:prompt().seat == "BR"
      and string.find(game:prompt().text, "As Russia", 1, true) ~= nil
  end)
  local negotiate = g:prompt().actions[1]
  t:eq(negotiate.name, "negotiate")
  g:act("negotiate", negotiate.arg)
  t:ok(not util.contains(args(g:prompt()), "issue.peace_congress"), "Russia is not offered the Peace Congress")
  ok, why = g:try("on", "issue.peace_congress")
  t:eq(ok, false)
  t:ok(string.find(why, "not a legal action", 1, true), why)
  g:act("back")
  play.to_seat(g, "round_turn", "FR")
  local trades = {}
  for _, action in ipairs(g:prompt().actions) do
    if action.name == "trade" then
      trades[#trades + 1] = action.arg
    end
  end
  t:eq(trades, { "RU", "BR", "AU" })
  g:act("trade", "RU")
  local p = g:prompt()
  g:act_as("FR", "offer", p.asks[1].actions[1].arg)
  g:act_as("BR", "refuse")
  play.to_seat(g, "round_turn", "FR")
  trades = {}
  for _, action in ipairs(g:prompt().actions) do
    if action.name == "trade" then
      trades[#trades + 1] = action.arg
    end
  end
  t:eq(trades, { "BR", "AU" }, "France's one trade with Russia is spent")
end)

-- Rule: 18.3. The player of Russia and Austria holds one hand of both hand sizes less four,
-- wagers one card for each (at most one French card), and neither trades with nor debates
-- the other. The Clash of Armies: Russia 11 + Austria 11 - 4 = 18.
test("18.3 the three-player hand, Wager, trades and debates", { instructions = 800000000, seconds = 40 }, function(t)
  local g = game(t, "three-players")
  play.to(g, "wager")
  t:eq(#play.lines(g, "Russia and Austria, one player, one hand: Russia 11 + Austria 11 - 4 = 18 cards (18.3)."), 1)
  t:eq(#dealt(g, "hand.RU"), 18)
  t:eq(g:zone("hand.AU"), {})
  t:ok(util.contains(g:zone("hand.RU"), "metternich"), "Metternich is in the joint hand")
  swap_in(g, "hand.RU", { "soult", "caulaincourt", "stadion" })
  g:act_as("RU", "wager", "soult")
  g:act_as("FR", "wager", first_of(g, "FR").arg)
  g:act_as("BR", "wager", first_of(g, "BR").arg)
  local p = g:prompt()
  t:eq(#p.asks, 1)
  t:ok(string.find(p.asks[1].actions[1].label, "As Austria: Wager", 1, true), p.asks[1].actions[1].label)
  t:ok(not util.contains(args(p.asks[1]), "caulaincourt"), "a second French card is not offered")
  t:ok(util.contains(args(p.asks[1]), "stadion"), "an Austrian card is offered")
  local ok, why = g:try("wager", "caulaincourt")
  t:eq(ok, false)
  t:ok(string.find(why, "not a legal action", 1, true), why)
  g:act_as("RU", "wager", "stadion")
  play.to(g, function(game)
    return game:state() == "round_turn" and string.find(game:prompt().text, "As Russia", 1, true) ~= nil
  end)
  for _, action in ipairs(g:prompt().actions) do
    t:ok(not (action.name == "trade" and action.arg == "AU"), "Russia does not trade with Austria")
  end
  local negotiate = g:prompt().actions[1]
  g:act("negotiate", negotiate.arg)
  g:act("on", g:prompt().actions[1].arg)
  if g:state() == "preempt" then
    g:act_as("FR", "pass")
  end
  t:eq(g:state(), "debate")
  local seats = {}
  while g:state() == "debate" do
    local seat = g:prompt().asks[1].seat
    seats[#seats + 1] = seat
    g:act_as(seat, "pass")
  end
  -- Clockwise from Russia's left: Britain, (Austria: not asked), France.
  t:eq(seats, { "BR", "FR" }, "the player of Russia and Austria is not asked to debate Russia's play")
end)

-- Rule: 18.2.4. On the turn Austria at War occurs, Austria may take a Military Operation at
-- the end of the Diplomacy Phase, after the winner is decided: it goes beside Austria at War
-- (the solitaire rule's place, L1858) and costs a Resource in the Government Phase. Set-up:
-- Austria at War put on Austria's Seat by hand at the last action of the phase.
test("18.2.4 Austria's Military Operation when Austria at War occurs", { instructions = 800000000, seconds = 40 }, function(t)
  local g = game(t, "two-players")
  play.to(g, function(game)
    return game:state() == "round_turn" and game:json().vars.diplomacy.round == 6 and game:prompt().seat == "FR"
  end)
  g:place("issue.austria_at_war", "diplomacy", "AU-7")
  play.to(g, function(game)
    return game:state() == "austria_operation" or game:json().phase == "Government Phase"
  end)
  t:eq(g:state(), "austria_operation")
  t:ok(#play.lines(g, "wins the Diplomacy Phase") == 1, "the winner is decided first")
  g:act("take")
  t:eq({ g:space_of("issue.mil_op_au") }, { "diplomacy", "AU-7" })
  t:eq(g:vars().government_costs, { { power = "AU", resources = 1, why = "the Austrian Military Operation of 18.2.4" } })
  t:eq(g:json().phase, "Government Phase")
  t:eq(#play.lines(g, "Austria pays 1 Resource for the Austrian Military Operation of 18.2.4."), 1,
    "the Government Phase charges it")
end)

-- Rule (21.7, L1856): against the French bot, Austria at War may not go on the Table the
-- turn right after the Armistice is accepted. Set-up: the War in Germany (turn 1, limited
-- war) against the French bot; the Armistice put on Russia's track by hand before the
-- Government Phase, so that it is funded and accepted in turn 1. Expected: in turn 2's
-- issue selection nobody is offered Austria at War.
test("21.7 Austria at War waits a turn after the Armistice", { instructions = 1500000000, seconds = 80 }, function(t)
  local g = game(t, "solo-vs-french-bot", "liberation-war")
  play.to_phase(g, "Government Phase")
  g:place("issue.armistice", "diplomacy", "RU-3")
  play.to_phase(g, "War Phase")
  t:eq(g:vars().armistice_turn, 1, "the Armistice is accepted in turn 1")
  play.to(g, "selection")
  t:eq(g:turn(), 2)
  t:eq({ g:space_of("issue.austria_at_war") }, { "diplomacy", "display" }, "it waits on the display")
  -- Every power's selections of the turn, each answered with its first issue.
  local asked = 0
  while g:state() == "selection" and g:turn() == 2 do
    for _, ask in ipairs(g:prompt().asks) do
      for _, action in ipairs(ask.actions) do
        t:ok(not string.find(action.label, "Austria at War", 1, true), ask.seat .. ": " .. action.label)
      end
    end
    asked = asked + 1
    local ask = g:prompt().asks[1]
    g:act_as(ask.seat, ask.actions[1].name, ask.actions[1].arg)
  end
  t:ok(asked >= 4, "every power selected")
end)
