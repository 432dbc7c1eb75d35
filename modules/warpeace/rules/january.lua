-- War and Peace, the Grand Campaign: the exchange of prisoners each January (G.3), the
-- end of the month and of the game (C), and the changes the map makes to the states (G.1.f,
-- H, I.3): a minor state changing side, being created or conquered, Napoleon's fate.
--
-- The Prisoners boxes hold each state's own captured units (RULES-GAPS.md: the card's box is
-- the captor's; kept by the captured state, each unit returns to its home Force Pool).

local form = include("@lib/form.lua")
local util = include("@lib/util.lua")
local steps = include("@lib/steps.lua")
local states = include("rules/states.lua")
local calendar = include("rules/calendar.lua")

local january = {}



-- The prisoners' holders: each major state's box and each group's, with the side its units
-- are on (a group's by its status, G.1.f).
local function sides(ctx)
  local list = {}
  for _, major in ipairs(states.MAJORS) do
    list[#list + 1] = { box = "prisoners." .. major, pool = "pool." .. major, status = ctx.vars.status[major], name = states.name(ctx, major) }
  end
  for _, group in ipairs(states.GROUPS) do
    list[#list + 1] = { box = "prisoners." .. group.id, pool = "pool." .. group.id, status = states.group_status(ctx, group), name = group.name }
  end
  return list
end

--- The strength points in `boxes` (a naval unit counts one).
local function strength(ctx, boxes)
  local n = 0
  for _, b in ipairs(boxes) do
    for _, kind in ipairs(states.KINDS) do
      n = n + ctx:units(b.box, kind)
    end
  end
  return n
end

-- Returns `n` strength points from `boxes` to their Force Pools, box by box, kind by kind
-- in the display's order; the words of what went home.
local function send_home(ctx, boxes, n)
  local words = {}
  for _, b in ipairs(boxes) do
    for _, kind in ipairs(states.KINDS) do
      local k = math.min(n, ctx:units(b.box, kind))
      if k > 0 then
        ctx:move_units(b.box, b.pool, kind, k)
        n = n - k
        words[#words + 1] = string.format("%d %s of %s", k, kind:gsub("_", " "), b.name)
      end
    end
  end
  return words
end

--- Sends home every prisoner of `state` (G.3.c: it is conquered, or becomes neutral of its
--- own will).
function january.free(ctx, state)
  local box, pool = states.box(state, "prisoners"), states.box(state, "pool")
  local words = send_home(ctx, { { box = box, pool = pool, name = states.name(ctx, state) } }, math.huge)
  if #words > 0 then
    ctx:log(string.format("%s's prisoners go home (G.3.c): %s.", states.name(ctx, state), table.concat(words, ", ")))
  end
end

--- The January exchange (G.3.b, G.3.c): a neutral state's prisoners go home; then the
--- pro- and anti-French sides' prisoners are exchanged strength point for strength point,
--- as far as the smaller side goes. Returns the number of strength points each side got
--- back.
function january.exchange(ctx)
  local by = { pro = {}, anti = {}, neutral = {} }
  for _, s in ipairs(sides(ctx)) do
    table.insert(by[s.status] or by.neutral, s)
  end
  local freed = send_home(ctx, by.neutral, strength(ctx, by.neutral))
  if #freed > 0 then
    ctx:log(string.format("Prisoners of neutral states go home (G.3.c): %s.", table.concat(freed, ", ")))
  end
  local n = math.min(strength(ctx, by.pro), strength(ctx, by.anti))
  if n > 0 then
    local pro, anti = send_home(ctx, by.pro, n), send_home(ctx, by.anti, n)
    ctx:log(string.format("January: %d strength point(s) of prisoners exchanged on each side (G.3.b): %s for %s.", n,
      table.concat(pro, ", "), table.concat(anti, ", ")))
  else
    ctx:log("January: no prisoners to exchange (G.3.b).")
  end
  return n
end

january.states = {}

-- The January chores before the segments: the exchange, fought out at once.
january.states.prisoners = {
  run = function(ctx)
    january.exchange(ctx)
    ctx:pop(nil)
  end,
}

--- The month's repairs go on (K.6.d, K.7.c): a prize paid for in full, whose months are
--- over, joins its captor's fleet (a month passes for it from the month after it came into
--- port); damaged squadrons paid for a month ago are ready.
function january.repairs(ctx)
  for _, state in ipairs(states.MAJORS) do
    local repair = ctx.vars.prize_repair[state]
    if repair then
      if repair.started then
        repair.months = math.max(0, repair.months - 1)
      end
      repair.started = true
      if repair.months == 0 and repair.paid >= repair.cost then
        ctx.vars.prize_repair[state] = nil
        ctx:log(string.format("%s's prize is repaired: a %s joins its fleet (K.6.e).", states.name(ctx, state), repair.kind == "squadrons" and "squadron" or "transport"))
      else
        ctx.vars.prize_repair[state] = repair
      end
    end
    local damage = ctx.vars.damage_repair[state]
    if damage and damage.turn < ctx:turn() then
      ctx.vars.damaged[state] = ctx.vars.damaged[state] - damage.n
      ctx.vars.damage_repair[state] = nil
      ctx:log(string.format("%d damaged squadron(s) of %s are repaired (K.7.c).", damage.n, states.name(ctx, state)))
    end
  end
end

--- The end of the month (E.4): the Turn marker advances; after August 1815, or a year after
--- Napoleon's death or exile, the count of production cities (C.2, C.3).
function january.end_of_month(ctx)
  local turn = ctx:turn()
  ctx.vars.lent = {}
  january.repairs(ctx)
  local agreed, gone = ctx.vars.agreed_end, ctx.vars.napoleon_gone
  if turn >= calendar.LAST_TURN or (agreed and turn >= agreed) or (gone and turn >= gone.ends) then
    return steps.call("final_count", { n = 1, counts = {} })
  end
  ctx:set_turn(turn + 1)
  ctx:place("turn.marker", "turn", tostring(turn + 1))
  ctx:set_phase(calendar.words(turn + 1))
  ctx:log(string.format("%s begins.", calendar.words(turn + 1)))
end

-- C.2: each player says how many production cities (a black, red or white infantry symbol)
-- he controls; the most wins, equals are joint victors; the Spanish player's count double
-- in a six-player game (D.3.f).
local count = {}
january.states.final_count = count

function count.prompt(ctx)
  local l = ctx.locals
  local seat = ctx.vars.players[l.n]
  return {
    seat = seat,
    text = string.format("C.2 The end of the game: the production cities %s controls (most strength points in the city hex)", states.name(ctx, seat)),
    actions = { { name = "cities", min = 0, max = 200, label = "Production cities" } },
  }
end

--- The winners of the count `counts` (seat to cities): the most, doubled for the Spanish
--- player of a six-player game; and the scores.
function january.winners(ctx, counts)
  local scores = {}
  for _, seat in ipairs(ctx.vars.players) do
    scores[seat] = counts[seat] * ((seat == "SP" and #ctx.vars.players == 6) and 2 or 1)
  end
  local _, winners = util.highest(ctx.vars.players, function(seat)
    return scores[seat]
  end)
  return winners, scores
end

function count.cities(ctx, n)
  local l = ctx.locals
  l.counts[ctx.vars.players[l.n]] = n
  if l.n < #ctx.vars.players then
    l.n = l.n + 1
    return
  end
  local winners, scores = january.winners(ctx, l.counts)
  ctx:game_over({ winners = winners, scores = scores, text = string.format("The most production cities at the end (C.2): %s", states.names(ctx, winners)) })
end

-- What the map does to the states, entered from a phase at the table.
form.define("minor_status", "A minor state's side", function(ctx)
  local minors = {}
  for _, group in ipairs(states.GROUPS) do
    for _, minor in ipairs(group.states) do
      minors[#minors + 1] = { minor, string.format("%s (%s)", states.name(ctx, minor), states.STATUS_WORDS[ctx.vars.status[minor]]) }
    end
  end
  return {
    { key = "minor", text = "the minor state", choices = minors },
    { key = "status", text = "its side now (its production city taken, it is created, or it is attacked: G.1.f, H.1)",
      choices = { { "pro", "Pro-French" }, { "anti", "Anti-French" }, { "neutral", "Neutral" } } },
  }
end)

form.define("major_conquest", "Conquest of a major state", function(ctx)
  local majors = {}
  for _, major in ipairs(states.MAJORS) do
    if not ctx.vars.conquered[major] then
      majors[#majors + 1] = { major, states.name(ctx, major) }
    end
  end
  return { { key = "state", text = "the major state all of whose production cities foreign units hold (I.1)", choices = majors } }
end)

--- `state`, a major state, is conquered (I.2): it becomes neutral, and may join no faction
--- nor be rolled for while land units remain in its Force Pool (I.2.a, I.2.f); its units
--- abroad go to its Force Pool and the rest is played at the table (I.2.b-e); its prisoners
--- go home (G.3.c).
function january.conquer_major(ctx, state)
  ctx.vars.conquered[state] = true
  ctx.vars.status[state] = "neutral"
  ctx:log(string.format("%s is conquered (I.2): it is neutral until no land unit is left in its Force Pool; its units outside its borders go to its Force Pool (moved at the table).", states.name(ctx, state)))
  -- G.1.j (L597-L598): every Victory Point is forfeited when any major state is conquered.
  if ctx:counter("vp.anti") > 0 then
    ctx:log(string.format("All Victory Points are forfeited (G.1.j): the anti-French faction's %d are lost.", ctx:counter("vp.anti")))
    ctx:set_counter("vp.anti", 0)
  end
  january.free(ctx, state)
end

--- Lifts the conquest of every major state with no land unit left in its Force Pool (I.2.f).
function january.release(ctx)
  for _, state in ipairs(states.MAJORS) do
    if ctx.vars.conquered[state] then
      local left = 0
      for _, kind in ipairs(states.LAND) do
        left = left + ctx:units(states.box(state, "pool"), kind)
      end
      if left == 0 then
        ctx.vars.conquered[state] = nil
        ctx:log(string.format("%s has no land unit left in its Force Pool: the Alliance Phase's rules apply to it again (I.2.f).", states.name(ctx, state)))
      end
    end
  end
end

form.define("conquest", "Conquest of a minor state", function(ctx)
  local minors = {}
  for _, group in ipairs(states.GROUPS) do
    for _, minor in ipairs(group.states) do
      minors[#minors + 1] = { minor, states.name(ctx, minor) }
    end
  end
  local majors = {}
  for _, major in ipairs(states.MAJORS) do
    majors[#majors + 1] = { major, states.name(ctx, major) }
  end
  return {
    { key = "minor", text = "the minor state conquered", choices = minors },
    { key = "by", text = "the conquering major state", choices = majors },
  }
end)

--- The conquest of `minor` by `by` (I.3): it joins the conqueror's side; its Force Pool's
--- units stand for the conqueror's; the conquering player's die decides the units on the
--- map (less than 4: to the Force Pool, exchanged; 4 or more: replaced where they stand).
function january.conquer(ctx, minor, by)
  ctx.vars.status[minor] = ctx.vars.status[by] == "anti" and "anti" or "pro"
  local die = ctx:roll(6, states.name(ctx, by) .. "'s conquest die")
  local replaced = die >= ctx.data.tables.conquest.replace_from
  ctx:log(string.format("%s conquers %s (I.3): its Force Pool's units now stand for %s's; die %d: %s.", states.name(ctx, by),
    states.name(ctx, minor), states.name(ctx, by), die,
    replaced and "its units on the map are replaced there by the conqueror's" or "its units on the map go to its Force Pool and are exchanged for the conqueror's"))
  return replaced
end

--- A phase's land forms come back here. Returns whether `result` was one.
function january.resume(ctx, result)
  if not result or result.cancelled then
    return false
  end
  if result.form == "minor_status" then
    local v = result.values
    ctx.vars.status[v.minor] = v.status
    ctx:log(string.format("%s is now %s (G.1.f).", states.name(ctx, v.minor), states.STATUS_WORDS[v.status]))
    return true
  elseif result.form == "major_conquest" then
    january.conquer_major(ctx, result.values.state)
    return true
  elseif result.form == "conquest" then
    january.conquer(ctx, result.values.minor, result.values.by)
    return true
  end
  return false
end

return january
