-- War and Peace, the Grand Campaign: the Alliance Phase, prisoners, conquest and the end.

local play = include("tests/lib/play.lua")
local util = include("@lib/util.lua")

-- The label of the action `name` with `arg` in the prompt now.
local function label(g, name, arg)
  for _, a in ipairs(g:prompt().actions) do
    if a.name == name and a.arg == arg then
      return a.label
    end
  end
end

local log = play.log

-- Rule G.1.g: the Alliance Phase's die is modified -1 for each pro-French City Point, major
-- state and minor group, +1 for each anti-French one, at most 4 either way. Set-up (the
-- fixture's statuses): France and Spain pro-French, England, Russia and Austria anti, every
-- group neutral: +1; with 9 pro-French City Points, 1 - 9 = -8, capped at -4. France rolls
-- for Prussia: a 3, 3 - 4 = -1: the fixture's "pro".
test("G.1.g the Alliance modifier, capped at 4", function(t)
  local g = play.game(t, "two-player")
  t:ok(play.to_state(g, "alliance_phase", "FR"), "France's Alliance Phase")
  t:eq(label(g, "roll_for", "PR"), "Roll for Prussia (+1)")
  g:set_counter("cp.pro", 9)
  t:eq(label(g, "roll_for", "PR"), "Roll for Prussia (-4)")
  g:set_dice("physical")
  g:act("roll_for", "PR", { 3 })
  play.logged(t, g, "France rolls for Prussia: 3 -9 for pro-French City Points, -2 for pro-French states and groups, +3 for anti-French states and groups, -8, capped at -4 = -1.")
  t:eq(g:vars().status.PR, "pro")
  play.logged(t, g, "Prussia becomes pro-French (the Alliance Table, G.1).")
end)

-- Rule G.1.k: England's roll is raised by one for each Production Point it lent the state in
-- the Naval Phase just before, beyond the cap. Set-up: England lends Prussia 2 points; the
-- modifier +1 becomes +3.
test("G.1.k England's loans raise its roll", function(t)
  local g = play.game(t, "two-player")
  t:ok(play.to_state(g, "phase", "EN"), "England's Naval Phase")
  g:act("lend")
  play.fill(g, { "PR", 2 })
  t:ok(play.to_state(g, "alliance_phase", "EN"), "England's Alliance Phase")
  t:eq(label(g, "roll_for", "PR"), "Roll for Prussia (+3)")
end)

-- Rules D.3.c, G.1.e and G.3.c: a player's own state announces its status; in three players
-- Russia is a player (RULES-GAPS.md); a state neutral of its own will has its prisoners back
-- at once. Set-up: 2 Russian infantry prisoners; in the Anti-French Segment Russia adopts
-- neutrality.
test("G.1.e a player's state announces: Russia adopts neutrality, and its prisoners go home", function(t)
  local g = play.game(t, "three-player")
  g:add_units("prisoners.RU", "infantry", 2)
  local pool = g:units("pool.RU", "infantry")
  t:ok(play.to_state(g, "alliance_phase", "RU"), "Russia announces")
  t:eq(g:legal(), { "announce anti", "announce neutral" })
  g:act("announce", "neutral")
  t:eq(g:vars().status.RU, "neutral")
  t:eq(g:units("prisoners.RU", "infantry"), 0)
  t:eq(g:units("pool.RU", "infantry"), pool + 2)
end)

-- Rules I.2.a and I.2.f: a conquered major state is neutral, and nobody rolls for it while
-- land units remain in its Force Pool. Set-up: France conquers Austria in September 1805;
-- in October its Force Pool is emptied by hand. Expected: no roll for Austria in France's
-- October Alliance Phase until then; afterwards Austria may be rolled for again.
test("I.2.f a conquered state is rolled for once its Force Pool has no land unit", function(t)
  local g = play.game(t, "two-player")
  play.to_text(g, "Movement Phase")
  g:act("major_conquest")
  g:act("set", "AU")
  t:eq(g:vars().status.AU, "neutral")
  play.to_turn(g, 2)
  t:ok(play.to_state(g, "alliance_phase", "FR"), "France's Alliance Phase")
  t:eq(label(g, "roll_for", "AU"), nil, "not while its Force Pool holds land units")
  -- Back to just before the phase, to enter it again with the Force Pool emptied.
  g:undo()
  for _, kind in ipairs({ "infantry", "cavalry", "landwehr" }) do
    g:add_units("pool.AU", kind, -g:units("pool.AU", kind))
  end
  t:ok(play.to_state(g, "alliance_phase", "FR"), "France's Alliance Phase again")
  t:ok(label(g, "roll_for", "AU") ~= nil, "Austria may be rolled for")
  play.logged(t, g, "Austria has no land unit left in its Force Pool")
end)

-- Rule G.1.j (L595-L598): "All Victory Points are forfeited whenever any major state is
-- conquered." Set-up: the anti-French faction holds 3 Victory Points (set by hand, the
-- withdrawal that gives them being played at the table); France conquers Austria in
-- September 1805. Expected: the faction's Victory Points fall to 0, and the log says so.
test("G.1.j Victory Points are forfeited when a major state is conquered", function(t)
  local g = play.game(t, "two-player")
  g:set_counter("vp.anti", 3)
  play.to_text(g, "Movement Phase")
  g:act("major_conquest")
  g:act("set", "AU")
  t:eq(g:counter("vp.anti"), 0)
  play.logged(t, g, "All Victory Points are forfeited (G.1.j): the anti-French faction's 3 are lost.")
end)

-- Rules C.3.b-d (L52-L60): the players may end the game by agreement at the end of a turn;
-- Napoleon killed ends it a year later, exiled a year later unless he returns; nothing
-- undoes an agreement or his death. Set-up: September 1805's Movement Phase. Expected: after
-- the agreement, neither "Napoleon is back" nor a second agreement is offered, and the game
-- goes to the final count at the end of September 1805; after Napoleon's death, no return is
-- offered; after his exile, the return is.
test("C.3 an agreed end stands; only an exile is undone by Napoleon's return", function(t)
  local g = play.game(t, "two-player")
  play.to_text(g, "Movement Phase")
  local here = g:inputs()
  g:act("agreed_end")
  t:ok(not util.contains(g:legal(), "napoleon_back"), table.concat(g:legal(), ", "))
  t:ok(not util.contains(g:legal(), "agreed_end"), table.concat(g:legal(), ", "))
  t:ok(play.to_state(g, "final_count"), "the final count")
  t:eq(g:turn(), 1)
  while g:inputs() > here do
    g:undo()
  end
  g:act("napoleon_killed")
  t:ok(not util.contains(g:legal(), "napoleon_back"), table.concat(g:legal(), ", "))
  t:ok(not util.contains(g:legal(), "napoleon_exiled"), table.concat(g:legal(), ", "))
  g:undo()
  g:act("napoleon_exiled")
  t:ok(util.contains(g:legal(), "napoleon_back"), table.concat(g:legal(), ", "))
  g:act("napoleon_back")
  t:ok(util.contains(g:legal(), "napoleon_exiled"), table.concat(g:legal(), ", "))
end)

-- Rule G.3.b: each January the prisoners are exchanged strength point for strength point, as
-- far as the smaller side goes. Set-up: 3 French infantry and a French squadron held by the
-- enemy, 2 English cavalry held by the French. Expected in January 1806: 2 strength points
-- a side go home: England's 2 cavalry, and 2 French infantry; 1 French infantry and the
-- squadron stay prisoners.
test("G.3.b the January exchange, strength point for strength point", function(t)
  local g = play.game(t, "two-player")
  g:add_units("prisoners.FR", "infantry", 3)
  g:add_units("prisoners.FR", "squadrons", 1)
  g:add_units("prisoners.EN", "cavalry", 2)
  local pool = g:units("pool.FR", "infantry")
  play.to_turn(g, 5)
  play.logged(t, g, "January: 2 strength point(s) of prisoners exchanged on each side (G.3.b): 2 infantry of France for 2 cavalry of England.")
  t:eq(g:units("prisoners.FR", "infantry"), 1)
  t:eq(g:units("prisoners.FR", "squadrons"), 1)
  t:eq(g:units("prisoners.EN", "cavalry"), 0)
  t:ok(g:units("pool.FR", "infantry") >= pool + 2, "home to France's Force Pool")
end)

-- Rule I.3.b: the conquering player's die: less than 4, the minor state's units on the map
-- go to its Force Pool; 4 or more, they are replaced where they stand. Set-up: France
-- conquers Hanover (a 3), then Sweden (a 4).
test("I.3.b the conquest die: 3 to the Force Pool, 4 replaced on the map", function(t)
  local g = play.game(t, "two-player")
  t:ok(play.to_state(g, "phase", "FR"), "France's phase")
  play.to_text(g, "Movement Phase")
  g:set_dice("physical")
  g:act("conquest")
  play.fill(g, { "hanover", "FR" }, { 3 })
  play.logged(t, g, "France conquers Hanover (I.3): its Force Pool's units now stand for France's; die 3: its units on the map go to its Force Pool and are exchanged for the conqueror's.")
  t:eq(g:vars().status.hanover, "pro")
  g:act("conquest")
  play.fill(g, { "sweden", "FR" }, { 4 })
  play.logged(t, g, "die 4: its units on the map are replaced there by the conqueror's.")
end)

-- Rules C.2 and D.3.f: the most production cities wins, equals are joint victors; the
-- Spanish player's count double in a six-player game. Set-up: the players agree to end
-- after September 1805; France 10 cities, England 9, Russia, Austria and Prussia 1 each,
-- Spain 5 (10). Expected: France and Spain joint victors.
test("C.2 the count of production cities; Spain's double in six players", function(t)
  local g = play.game(t, "six-player")
  t:ok(play.to_text(g, "Combat Phase"), "a Combat Phase")
  g:act("agreed_end")
  play.to_state(g, "final_count")
  for _, n in ipairs({ 10, 9, 1, 1, 1, 5 }) do
    g:act("cities", n)
  end
  t:eq(g:result().winners, { "FR", "SP" })
  t:eq(g:result().scores.SP, 10)
end)

-- Rules J.1.f and J.5.f: each January the year's additions go to the Force Pools, and
-- England may add a naval unit. Set-up: January 1806 (the fixture adds 3 infantry and a
-- cavalry to a major state); England adds a transport.
test("J.1.f the January additions, and J.5.f England's naval unit", function(t)
  local g = play.game(t, "two-player")
  play.to_turn(g, 5)
  local before = g:units("pool.EN", "infantry")
  t:ok(play.to_text(g, "England's Reinforcement Phase"), "England's January phase")
  t:eq(g:units("pool.EN", "infantry"), before + 3)
  play.produce(g, { 3, 1, 0 }, 2)
  local transports = g:units("pool.EN", "transports")
  g:act("add_naval", "transports")
  t:eq(g:units("pool.EN", "transports"), transports + 1)
  t:ok(not table.concat(g:legal(), " "):find("add_naval", 1, true), "one a January")
end)

-- Reading (RULES-GAPS.md): the Alliance Table is read within its rows, -3 to 14. Set-up:
-- England lends Prussia 10 points; England rolls a 6 for it: 6 + 1 + 10 = 17, read as 14.
test("G.1 reading: a roll beyond the Alliance Table reads as its last row", function(t)
  local g = play.game(t, "two-player")
  play.to_state(g, "phase", "EN")
  g:act("lend")
  play.fill(g, { "PR", 10 })
  t:ok(play.to_state(g, "alliance_phase", "EN"), "England's Alliance Phase")
  g:set_dice("physical")
  g:act("roll_for", "PR", { 6 })
  play.logged(t, g, "= 17 (read as 14).")
end)

-- Reading (RULES-GAPS.md): a state's January additions come once, in the segment it is in
-- then. Set-up: January 1806; Prussia, neutral, gets its 3 infantry in the Neutral Segment;
-- France's Alliance roll (a 1, with 2 pro-French City Points: 0, pro-French) brings it into
-- the Pro-French Segment's Reinforcement Phase. Expected: 3 infantry added, not 6.
test("J.1.f reading: a state that changes side in January gets its additions once", function(t)
  local g = play.game(t, "two-player")
  play.to_turn(g, 4)
  local before = g:units("pool.PR", "infantry")
  play.to_turn(g, 5)
  t:eq(g:units("pool.PR", "infantry"), before + 3, "the Neutral Segment's additions")
  t:ok(play.to_state(g, "alliance_phase", "FR"), "France's January Alliance Phase")
  g:set_counter("cp.pro", 2)
  g:set_dice("physical")
  g:act("roll_for", "PR", { 1 })
  g:set_dice("digital")
  t:eq(g:vars().status.PR, "pro")
  t:ok(play.to_text(g, "Prussia's Reinforcement Phase"), "Prussia produces, pro-French")
  t:eq(g:units("pool.PR", "infantry"), before + 3)
end)

-- Rule J.1.f (L805-L808): a neutral minor state's January additions are placed in the Neutral
-- Player(s) Segment's Reinforcement Phase, though it produces nothing. Set-up: the two-player
-- game to January 1806, Naples and Denmark neutral (the fixture adds 1 infantry to each in
-- 1806; a minor state's units wait in its group's Force Pool). Expected: the Italian and
-- Baltic pools grow, and the log names Naples's and Denmark's additions once, in January
-- and not again in February.
test("J.1.f a neutral minor state's January additions", function(t)
  local g = play.game(t, "two-player")
  play.to_turn(g, 4)
  local italian, baltic = g:units("pool.italian", "infantry"), g:units("pool.baltic", "infantry")
  t:eq({ g:vars().status.naples, g:vars().status.denmark }, { "neutral", "neutral" })
  play.to_turn(g, 5)
  local once = function(text)
    local n, at = 0, 1
    while true do
      local found = log(g):find(text, at, true)
      if not found then
        return n
      end
      n, at = n + 1, found + 1
    end
  end
  t:eq(once("January 1806: Naples's Force Pool gets 1 infantry (J.1.f)."), 1, log(g))
  t:eq(once("January 1806: Denmark's Force Pool gets 1 infantry (J.1.f)."), 1, log(g))
  t:ok(g:units("pool.italian", "infantry") > italian, "the Italian pool")
  t:ok(g:units("pool.baltic", "infantry") > baltic, "the Baltic pool")
  play.to_turn(g, 6)
  t:eq(once("January 1806: Naples's Force Pool gets"), 1, "once a year")
end)
