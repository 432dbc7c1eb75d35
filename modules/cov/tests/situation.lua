-- Congress of Vienna: each kind of Initial Situation instruction carried out by the rules
-- (16.1, 18.4.4), one test per kind. The public cards are A-5 (section 16) and Intr-2
-- (Lützen & Bautzen, 18.4.4); the test fixture's B-5 is a placeholder holding an
-- instruction for the players and a battle modifier.

local util = include("@lib/util.lua")
local play = include("tests/lib/play.lua")

local FIXTURE = "tests/owner-fixture.ron"

local function lutzen(t, seating, dice)
  local g = t:game { scenario = "lutzen-bautzen", overlay = FIXTURE, dice = dice and "physical" or nil,
    options = seating and { seating = seating } or nil }
  g:act("begin", nil, dice)
  return g
end

local function at(g, piece)
  local place, space = g:space_of(piece)
  return place .. "/" .. space
end

-- Rule: cards to hands (16.1, L125-L141): A-5 gives Friedrich Wilhelm III to Russia, Kolowrat
-- to Austria, Huskisson to Britain and Gaudin to France, before the deal; they may not be
-- wagered.
test("16.1 cards to hands: A-5", function(t)
  local g = t:game { scenario = "clash-of-armies", overlay = FIXTURE }
  g:act("begin")
  local given = { RU = "friedrich_wilhelm_iii", AU = "kolowrat", BR = "huskisson", FR = "gaudin" }
  for power, card in pairs(given) do
    t:ok(util.contains(g:zone("hand." .. power), card), card .. " in " .. power .. "'s hand")
    t:eq(g:vars().initial_cards[card], true)
  end
end)

-- Rule: issues placed (18.4.4): on a track at a distance, on a Seat (secured), on the
-- Negotiation Table, in the War of 1812 box. Intr-2 with one player.
test("18.4.4 issues: track, Seat, Table and box (Intr-2)", function(t)
  local g = lutzen(t)
  t:eq(g:zone("situation.current"), { "intr_2" })
  t:eq(at(g, "issue.mil_op_ru"), "diplomacy/RU-2")
  t:eq(at(g, "issue.fin_aid_br.1"), "diplomacy/RU-2")
  t:eq(at(g, "issue.mil_op_br.1"), "diplomacy/BR-7")
  t:eq(at(g, "issue.sweden_at_war"), "diplomacy/BR-7")
  t:eq(at(g, "issue.recruit_br"), "diplomacy/BR-7")
  t:eq(g:vars().secured["issue.recruit_br"], true)
  t:eq(at(g, "issue.recruit_fr"), "diplomacy/table")
  t:eq(at(g, "issue.mil_op_us"), "front.g/war_of_1812")
end)

-- Rule: an instruction limited to some player counts (18.4.1, 18.4.4): with three players
-- Britain takes full part, so Intr-2's Seat issues and Britain's passivity do not apply.
test("18.4.4 instructions for some player counts only (Intr-2, three players)", function(t)
  local g = lutzen(t, "three-players")
  local _, space = g:space_of("issue.recruit_br")
  t:eq(space, "display")
  t:eq(g:vars().turn_rules.passive, {})
end)

-- Rule: the Environment Table modifiers of the card (16.1, L160): A-5's +1 on both rolls;
-- physical dice 3 and 2 read column 4 and row 3.
test("16.1 Environment Table modifiers: A-5", function(t)
  local g = t:game { scenario = "clash-of-armies", overlay = FIXTURE, dice = "physical" }
  g:act("begin", nil, { 3, 2 })
  t:eq(#play.lines(g, "Initial Environment Table: first roll 3 +1 = column 4; second roll 2 +1 = row 3."), 1)
end)

-- Rule: a power out of the game (18.4.1, L1224; Intr-2): Austria draws no cards and places
-- no issues, and when the Environment Table picks Austria nobody takes the extra card.
-- Physical dice: 3 + 1 = column 4, Austria's.
test("18.4.4 special: a power out of the game (Intr-2's Austria)", function(t)
  local g = lutzen(t, nil, { 3, 2 })
  t:eq(g:vars().out_of_game, { AU = true })
  t:eq(#play.lines(g, "The table picks Austria, which is out of the game: nobody takes an extra card."), 1)
  play.to(g, "wager")
  t:eq(g:zone("hand.AU"), {})
  for _, ask in ipairs(g:prompt().asks) do
    t:ok(ask.seat ~= "AU", "Austria does not wager")
  end
end)

-- Rule: a named card for the Environment Table's pick (18.4.4): in a one-player game, when
-- the table picks France it must take Andrew Jackson; with two players France chooses its
-- card. Physical dice: 5 + 1 = column 6, France's.
test("18.4.4 special: the Environment Table's named card (Intr-2's Andrew Jackson)", function(t)
  local g = lutzen(t, nil, { 5, 2 })
  t:ok(util.contains(g:zone("hand.FR"), "andrew_jackson"), "France took Andrew Jackson")
  t:eq(#play.lines(g, "The table picks France, which must take Andrew Jackson."), 1)
  g = lutzen(t, "two-players", { 5, 2 })
  t:eq(g:state(), "extra_card")
  t:eq(g:prompt().seat, "FR")
end)

-- Rule: a power that sits out the Diplomacy Phase (18.4.4): with one or two players Britain
-- makes no wager, places no issues and does not negotiate, debate or offer trades.
test("18.4.4 special: a passive power (Intr-2's Britain)", { instructions = 400000000, seconds = 20 }, function(t)
  local g = lutzen(t)
  t:eq(g:vars().turn_rules.passive, { BR = true })
  play.to(g, "wager")
  for _, ask in ipairs(g:prompt().asks) do
    t:ok(ask.seat ~= "BR", "Britain does not wager")
  end
  play.to_phase(g, "Government Phase")
  t:eq(#play.lines(g, "Britain selects"), 0)
  t:eq(#play.lines(g, "Britain negotiates"), 0)
  t:eq(#play.lines(g, "Britain debates"), 0)
  t:eq(#play.lines(g, "Britain offers"), 0)
end)

-- Rule: free units, no withdrawals, a dead card (18.4.4): one French unit from the force
-- pool to Paris; no withdrawals before battle this turn; Kutuzov is out of the game.
test("18.4.4 special: free units, no withdrawals, a dead card (Intr-2)", function(t)
  local g = lutzen(t)
  t:eq(g:units("reserve.FR", "FR"), 1)
  t:eq(g:vars().turn_rules.no_withdrawals, true)
  t:ok(util.contains(g:zone("removed"), "kutuzov"), "Kutuzov is removed")
  t:eq(#play.lines(g, "Kutuzov is dead: out of the game."), 1)
end)

-- Rule: an instruction that is not data (16.1): the players carry it out by hand and
-- confirm it, and the confirmation is an input. The fixture's B-5 holds only such an
-- instruction.
test("16.1 instructions carried out by hand (the fixture's B-5)", function(t)
  local g = t:game { scenario = "clash-of-armies", overlay = FIXTURE, options = { situation = "B" } }
  g:act("begin")
  t:eq(g:zone("situation.current"), { "b_5" })
  t:eq(g:state(), "checklist")
  t:ok(string.find(g:prompt().text, "B-5: 1813 August: A placeholder instruction of the test fixture: confirm it.", 1, true),
    g:prompt().text)
  local inputs = g:inputs()
  g:act("done")
  t:eq(g:inputs(), inputs + 1)
  t:ok(g:state() ~= "checklist", "the step is done once confirmed")
end)

-- Rule: an Initial Situation card's battle modifier for the turn (16.4, the Initial Battle
-- DRM). Set-up: the fixture's B-5 gives the Allies +1; the French Military Operation is put
-- on France's Seat by hand at the Wager, and the turn is played with first legal actions to
-- its first battle. Expected: the Allied total counts the +1; France's does not.
test("16.4 an Initial Situation card's battle DRM (the fixture's B-5)", { instructions = 800000000, seconds = 40 }, function(t)
  local g = t:game { scenario = "clash-of-armies", overlay = FIXTURE, options = { situation = "B" } }
  play.to(g, "wager")
  g:place("issue.mil_op_fr", "diplomacy", "FR-7")
  play.to(g, function(game)
    return #play.lines(game, "Losses: ") > 0
  end)
  t:eq(#play.lines(g, "This turn the Allies have +1 in battle."), 1)
  local allies, france = play.lines(g, "The Allies: ")[1], play.lines(g, "France: ")[1]
  t:ok(string.find(allies, "+ 1 the Initial Situation card", 1, true), allies)
  t:ok(not string.find(france, "Initial Situation", 1, true), france)
end)
