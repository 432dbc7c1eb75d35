-- War and Peace, the Grand Campaign: transport capacity and the optional rules of K.

local play = include("tests/lib/play.lua")

local log = play.log

-- At France's Naval Phase of September 1805, with the options `options`.
local function french_naval(t, options)
  return play.at(t, "phase", "FR", "France's Naval Phase", options)
end

-- France's expeditionary force from Prussia (K.4.b, the rule in use): 2 pro-French City
-- Points, and France's Alliance Phase roll for Prussia with the dice `dice`.
local function expedition(t, dice)
  local g = play.at(t, "alliance_phase", "FR", "France's Alliance Phase", { ["k4.expeditions"] = "on" })
  g:set_counter("cp.pro", 2)
  g:set_dice("physical")
  g:act("roll_for", "PR", dice)
  return g
end

-- Rule F.3.d: a transport carries 5 production or supply points, or 2 infantry, or 1
-- cavalry, or 2 points with 1 infantry. Set-up: 5 points; 2 points and 1 infantry; 7 points,
-- 3 infantry and a cavalry (a cavalry, a mixed load, an infantry pair, 5 points: 4).
test("F.3.d how many transports a cargo needs", function(t)
  local g = french_naval(t)
  for _, case in ipairs({ { 5, 0, 0, 1 }, { 2, 1, 0, 1 }, { 0, 2, 0, 1 }, { 0, 0, 2, 2 }, { 7, 3, 1, 4 } }) do
    g:act("transport_load")
    play.fill(g, { case[1], case[2], case[3] })
    play.logged(t, g, string.format("%d production or supply points, %d infantry and %d cavalry strength points need %d transport(s)", case[1], case[2], case[3], case[4]))
  end
end)

-- Rule K.6.d's example: two captured squadrons and a transport take 7 Production Points and
-- 7 turns in port to repair, one at a time. Set-up: the prizes rule; in September 1805
-- France takes two English squadrons (2 to 1, a 6 - 1 = 5: the fixture's "SC SR", twice)
-- and an unescorted transport (a 1: "C"); each month France pays toward the repairs.
-- Expected: the squadrons ready at the end of December 1805 and March 1806, the transport at
-- the end of April 1806: seven turns after September; 3 + 3 + 1 = 7 points.
test("K.6.d two prizes and a transport: 7 points and 7 turns", function(t)
  local g = french_naval(t, { ["k6.prizes"] = "on" })
  g:set_dice("physical")
  for _ = 1, 2 do
    g:act("naval_combat")
    play.fill(g, { "EN", 8, 4, "none" }, { 6 })
    -- England retreats; France does not pursue (F.7.c).
    g:act("stop")
  end
  g:act("transport_attacked", nil, { 1 })
  g:set_dice("digital")
  t:eq(#g:vars().prizes.FR, 3)
  local paid = 0
  for _ = 1, 8 do
    t:ok(play.to_text(g, "France's Reinforcement Phase"), "France produces")
    play.produce(g, { 3, 1, 0 }, 6)
    local function has(name)
      return table.concat(g:legal(), " "):find(name, 1, true) ~= nil
    end
    if has("repair_prize") then
      g:act("repair_prize")
      paid = paid + 1
    end
    while has("pay_prize") do
      g:act("pay_prize")
      paid = paid + 1
    end
    g:act("done")
  end
  play.to_turn(g, 9)
  t:eq(paid, 7)
  local text = log(g)
  local ready = {}
  for month in text:gmatch("France's prize is repaired: a %a+ joins its fleet %(K%.6%.e%)%.\n(%a+ %d+) begins") do
    ready[#ready + 1] = month
  end
  t:eq(ready, { "January 1806", "April 1806", "May 1806" }, "ready at the ends of December, March and April")
end)

-- Rule K.7: with the battle damage rule, the squadrons of a force retreating after an
-- adverse result are damaged, and repaired for a point each in a turn. Set-up: France's 3
-- against England's 2 with Nelson, a 5 ("SR": England retreats, 2 squadrons damaged);
-- England pays for one in its Reinforcement Phase. Expected: 1 left damaged after the month.
test("K.7 battle damage, repaired for a point in a turn", function(t)
  local g = play.naval_combat(t, "FR", { ["k7.damage"] = "on" })
  play.fill(g, { "EN", 3, 2, "defender" }, { 5 })
  -- England retreats; France does not pursue (F.7.c); Nelson's injury roll.
  g:act("stop", nil, { 1, 1 })
  g:set_dice("digital")
  t:eq(g:vars().damaged, { EN = 2 })
  t:ok(play.to_text(g, "England's Reinforcement Phase"), "England produces")
  play.produce(g, { 3, 1, 0 }, 6)
  g:act("repair_damage")
  play.to_turn(g, 3)
  t:eq(g:vars().damaged, { EN = 1 })
  play.logged(t, g, "1 damaged squadron(s) of England are repaired (K.7.c).")
end)

-- Rule K.4.b: a major state no player represents turning pro-French yields France an
-- expeditionary force: two dice of infantry, and with 6 or less a cavalry strength point
-- and an unnamed leader. Set-up: the rule in use; 2 pro-French City Points; France rolls
-- for Prussia: a 1 (1 - 1 = 0: pro-French), then 3 and 2.
test("K.4.b an expeditionary force: 5 infantry, 1 cavalry, an unnamed leader", function(t)
  local g = expedition(t, { 1, 3, 2 })
  t:eq(g:vars().status.PR, "pro")
  play.logged(t, g, "France requisitions an expeditionary force from Prussia (K.4.b): 5: 5 infantry and 1 cavalry strength points, with an unnamed leader.")
end)

-- Rule K.4.b: with 7 or more, two cavalry strength points and a named leader drawn at
-- random. Set-up: as above, the dice 4 and 3.
test("K.4.b an expeditionary force of 7: two cavalry and a named leader", function(t)
  local g = expedition(t, { 1, 4, 3 })
  play.logged(t, g, "(K.4.b): 7: 7 infantry and 2 cavalry strength points, with a named leader drawn at random.")
end)
