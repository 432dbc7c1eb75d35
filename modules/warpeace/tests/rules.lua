-- War and Peace, the Grand Campaign: the numbers the text fixes, one test each.

local play = include("tests/lib/play.lua")
local calendar = include("rules/calendar.lua")

local log = play.log

-- Rule C.3: the game runs from September 1805 to August 1815, a month a turn: 120 turns.
test("C.3 September 1805 to August 1815 is 120 months", function(t)
  t:eq(calendar.words(1), "September 1805")
  t:eq(calendar.words(5), "January 1806")
  t:eq(calendar.words(120), "August 1815")
  t:eq(calendar.LAST_TURN, 120)
end)

-- Rule E: a month passes through its segments and phases to the next.
test("E a month's segments and phases, to October 1805", function(t)
  local g = play.game(t, "two-player")
  play.to_turn(g, 2)
  t:eq(g:turn(), 2)
  t:eq({ g:space_of("turn.marker") }, { "turn", "2" })
  play.logged(t, g, "October 1805 begins.")
end)

-- Rule J.2.b: the production die: 5 or less gives a Production Point a production city no
-- enemy controls, 6 or more two. Set-up: France holds its 3 red and 1 black cities; it
-- rolls 5 (no +1): 4 points, 1 of them Landwehr-only; again with the +1 (Napoleon where the card says): 5 + 1 = 6,
-- 8 points, 2 of them Landwehr-only.
test("J.2.b a 5 gives a point a city, a 6 two; France's +1", function(t)
  for _, case in ipairs({ { 0, 4, 1 }, { 1, 8, 2 } }) do
    local g = play.produced(t, "France's Reinforcement Phase", { 3, 1, case[1] }, 5)
    t:eq(g:counter("pp.FR"), case[2])
    t:ok(g:prompt().text:find(string.format("(%d of them Landwehr-only)", case[3]), 1, true), g:prompt().text)
  end
end)

-- Rules J.2.d and J.2.e: guard cavalry costs 3, guard infantry and cavalry 2, infantry 1,
-- Landwehr half a point; a black-symbol city's points buy Landwehr only. Set-up: France's 8
-- points (6 from red cities, 2 Landwehr-only): a guard cavalry (3), a guard infantry (2), 2
-- Landwehr (1, from the black points first); an infantry (1) from the last red point; then
-- the Landwehr-only point left buys no infantry.
test("J.2.d the costs, and J.2.e Landwehr-only points", function(t)
  local g = play.produced(t, "France's Reinforcement Phase", { 3, 1, 1 }, 5)
  play.buy(g, "guard_cavalry", 1, "FR red 1")
  t:eq(g:counter("pp.FR"), 5)
  play.buy(g, "guard_infantry", 1, "FR red 1")
  play.buy(g, "landwehr", 2, "FR black 1")
  t:ok(g:prompt().text:find("2 Production Points (1 of them Landwehr-only)", 1, true), g:prompt().text)
  play.buy(g, "infantry", 1, "FR red 2")
  t:ok(g:prompt().text:find("1 Production Points (1 of them Landwehr-only)", 1, true), g:prompt().text)
  play.buy(g, "infantry", 1, "FR red 2")
  play.logged(t, g, "Not bought: it costs 1 Production Points, and 0 (not Landwehr-only points) can pay it.")
  t:eq(g:units("pool.FR", "guard_cavalry"), 0)
  t:eq(g:units("pool.FR", "landwehr"), 0)
  t:eq(g:units("pool.FR", "infantry"), 5)
end)

-- Rule J.2.a: no more than four strength points deployed in one production city in a
-- Reinforcement Phase. Set-up: France's 8 points; 3 infantry in "FR red 1", then 2 more
-- there (refused), then 2 in "FR red 2".
test("J.2.a four strength points a city", function(t)
  local g = play.produced(t, "France's Reinforcement Phase", { 3, 1, 1 }, 5)
  play.buy(g, "infantry", 3, "FR red 1")
  play.buy(g, "infantry", 2, "FR red 1")
  play.logged(t, g, "Not bought: no more than 4 strength points are deployed in FR red 1 in a phase (J.2.a).")
  play.buy(g, "infantry", 2, "FR red 2")
  t:eq(g:units("pool.FR", "infantry"), 1)
end)

-- Rule J.5.d: England spends at most 2 Production Points on land units and 5 on naval units
-- in one phase; a naval unit costs 5 (J.6.b). Set-up: England holds its 6 red cities (the
-- fixture's) and rolls a 6: 12 points, and 2 Landwehr-only; 2 infantry (2), a cavalry
-- (refused: 2 more on land), a squadron (5), a transport (refused: 5 more at sea).
test("J.5.d England's 2 points on land and 5 at sea", function(t)
  local g = play.produced(t, "England's Reinforcement Phase", { 6, 1, 0 }, 6)
  t:eq(g:counter("pp.EN"), 14)
  play.buy(g, "infantry", 2, "EN red 1")
  play.buy(g, "cavalry", 1, "EN red 2")
  play.buy(g, "squadrons", 1)
  play.buy(g, "transports", 1)
  play.logged(t, g, "Not bought: England spends at most 2 Production Points on land units in a phase (J.5.d).")
  play.logged(t, g, "Not bought: England spends at most 5 Production Points on naval units in a phase (J.5.d).")
  t:eq(g:units("pool.EN", "squadrons"), 0)
  t:eq(g:units("pool.EN", "transports"), 1)
  t:eq(g:counter("pp.EN"), 7, "14 - 2 - 5")
end)

-- Rule J.6.c: the monthly installment plan: a down payment of 1 puts the naval unit in box
-- 5 of the Production Track; each point moves it a box down; from box 1 it is deployed: 5
-- in all. Set-up: France's 8 points: the down payment, then 4 payments in the same phase.
test("J.6.c a naval unit on installments: 1 down, a box a point, 5 in all", function(t)
  local g = play.produced(t, "France's Reinforcement Phase", { 3, 1, 1 }, 5)
  g:act("installment", "squadrons")
  t:eq(g:vars().installments, { { state = "FR", kind = "squadrons", box = 5, paid = 1 } })
  for box = 4, 2, -1 do
    g:act("pay", 1)
    t:eq(g:vars().installments[1].box, box)
  end
  g:act("pay", 1)
  t:eq(g:vars().installments, {}, "deployed from box 1")
  t:eq(g:counter("pp.FR"), 3, "8 - 5")
  t:eq(g:units("pool.FR", "squadrons"), 0)
end)

-- Rules J.2.b, J.2.i and J.3.b (L820-L828, L861-L875), option j2.minor_die: a minor state's
-- production takes its own die, or (controller) the result France rolled this phase, its
-- cities counting as France's. Set-up: two players; France's Reinforcement Phase, a 5 with
-- the French +1 (6); Holland, pro-French, produces from its 1 red city. Expected: with
-- `controller`, no die for Holland, 2 points (6 or more: 2 a city); with `own`, Holland's
-- die, a 3: 1 point.
test("J.3.b a minor state's production die: its own, or France's by option", function(t)
  for _, case in ipairs({ { "controller", 2 }, { "own", 1 } }) do
    local g = play.game(t, "two-player", 1, { ["j2.minor_die"] = case[1] })
    play.to_text(g, "France's Reinforcement Phase")
    play.produce(g, { 3, 1, 1 }, 5)
    g:act("done")
    play.to_text(g, "Which state of the group produces")
    g:act("minor", "holland")
    g:set_dice("physical")
    g:act("production")
    play.fill(g, { 1 }, case[1] == "own" and { 3 } or nil)
    t:eq(g:counter("pp.minor"), case[2], case[1])
    if case[1] == "controller" then
      play.logged(t, g, "Holland's cities count as France's: its production die's 6 gives 2 Production Point(s) from 1 city(ies) (J.2.b, J.3.b).")
    end
  end
end)

-- Rule J.6.d (L941-L945): the 30 points of a Spanish naval unit "may be financed" in
-- installments; it may also be bought outright, all 30 at once. Set-up: Spain's
-- Reinforcement Phase, 6 points (a 6 with 3 red cities). Expected: the purchase offers a
-- squadron at 30 points and refuses it for its cost, not because Spain must use installments.
test("J.6.d a Spanish naval unit may be bought outright, at 30 points", function(t)
  local g = play.produced(t, "Spain's Reinforcement Phase", { 3, 0 }, 6)
  local pool = g:units("pool.SP", "squadrons")
  play.buy(g, "squadrons", 1)
  play.logged(t, g, "it costs 30 Production Points, and 6 (not Landwehr-only points) can pay it")
  t:ok(not log(g):find("installments only", 1, true), log(g))
  t:eq(g:units("pool.SP", "squadrons"), pool)
end)

-- Rule J.6.d: a Spanish naval unit costs 30 native points in six installments of 5. Set-up:
-- Spain's production: a 6 with 3 red and 1 black cities is 8 points a month; its payments
-- of 5 over several months (the reading: the sixth is paid in box 1, RULES-GAPS.md).
test("J.6.d a Spanish naval unit: 30 points in six installments of 5", function(t)
  local g = play.game(t, "two-player")
  local paid = 0
  for month = 1, 6 do
    play.to_text(g, "Spain's Reinforcement Phase")
    play.produce(g, { 3, 0 }, 6)
    if month == 1 then
      g:act("installment", "squadrons")
    else
      g:act("pay", 1)
    end
    paid = paid + 5
    local item = g:vars().installments[1]
    if month < 6 then
      t:eq(item.paid, paid)
      t:eq(item.box, 6 - month)
    else
      t:eq(item, nil, "30 paid: deployed")
    end
    g:act("done")
  end
end)
