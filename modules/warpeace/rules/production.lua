-- War and Peace, the Grand Campaign: the Reinforcement Phase (J). Each active state's
-- player says which of its production cities no enemy controls and rolls the production
-- die: 5 or less gives a Production Point a city, 6 or more two (France +1, England -1 when
-- the card's conditions hold). He buys strength points from the state's Force Pool at their
-- printed costs: a black-symbol city's points buy Landwehr only; no more than four strength
-- points are deployed in one city; England spends at most 2 points on land units and 5 on
-- naval ones; a naval unit costs 5, or goes on the Production Track's monthly installment
-- plan (Spain and Portugal: 30 native points in six installments of 5). Points not spent
-- are lost. In January the state's Force Pool first gets the year's additions, and England
-- may add a naval unit. Minor states produce only when pro- or anti-French, one state a
-- group in each phase, from the group's Force Pool. A state's phase is declared as steps
-- (@lib/steps.lua): the additions, the group's producing state, the die, the purchases.

local form = include("@lib/form.lua")
local steps = include("@lib/steps.lua")
local states = include("rules/states.lua")
local calendar = include("rules/calendar.lua")

local production = {}

production.LAND, production.NAVAL = states.LAND, states.NAVAL
production.IBERIAN = { SP = true, portugal = true }

--- Who produces in a faction's Reinforcement Phase (J.2, J.3): each major state of the
--- faction, then each minor state group with a state of the faction (one of its states
--- produces, J.3.b); none of a neutral minor (J.3.a).
function production.producers(ctx, faction)
  local list = calendar.majors_of(ctx, faction)
  if faction ~= "neutral" then
    for _, group in ipairs(states.GROUPS) do
      if #states.with_status(ctx, group.states, faction) > 0 then
        list[#list + 1] = "group:" .. group.id
      end
    end
  end
  return list
end

--- The Production Points a roll of `die` (modified) gives for `cities` cities (J.2.b).
function production.points(ctx, die, cities)
  local p = ctx.data.tables.production
  return (die >= p.high_roll and p.high_points or p.low_points) * cities
end

--- Each name once, in the order first given, leaving out those in `seen` (a city the owner
--- typed twice, or under both colours, is one city: the first colour it is under).
local function once_each(names, seen)
  local out = {}
  for _, name in ipairs(names or {}) do
    if not seen[name] then
      seen[name] = true
      out[#out + 1] = name
    end
  end
  return out
end

--- A state's production cities by symbol colour (owner data): {red = {...}, black = {...}}.
function production.cities(ctx, state)
  local c, seen = ctx.data.tables.production_cities[state], {}
  local red = once_each(c.red, seen)
  return { red = red, black = once_each(c.black, seen) }
end

-- The January additions to `state`'s Force Pool (J.1.f), from the owner's schedule.
local function additions(ctx, state)
  local _, year = calendar.month_of(ctx:turn())
  -- Once a January, in the segment the state is in then (a state that changes side later
  -- in the month has had them).
  if not calendar.january(ctx) or year < 1806 or ctx.vars.status[state] == "unformed" or ctx.vars.added[state] == year then
    return
  end
  ctx.vars.added[state] = year
  local units = ctx.data.tables.pool_schedule[state .. "/" .. year]
  local words = {}
  for _, kind in ipairs(production.LAND) do
    if units[kind] and units[kind] > 0 then
      ctx:add_units(states.box(state, "pool"), kind, units[kind])
      words[#words + 1] = string.format("%d %s", units[kind], production.kind_words(ctx, kind))
    end
  end
  for _, kind in ipairs(states.NAVAL_KINDS) do
    if units[kind] and units[kind] > 0 then
      ctx:add_units(states.box(state, "pool"), kind, units[kind])
      words[#words + 1] = string.format("%d %s", units[kind], kind)
    end
  end
  if #words > 0 then
    ctx:log(string.format("January %d: %s's Force Pool gets %s (J.1.f).", year, states.name(ctx, state), table.concat(words, ", ")))
  end
end

--- J.1.f (L805-L808): the neutral minor states' January additions, placed in the Neutral
--- Player(s) Segment's Reinforcement Phase (a neutral minor state produces nothing, J.2.i,
--- but its Force Pool grows).
function production.neutral_additions(ctx)
  for _, group in ipairs(states.GROUPS) do
    for _, minor in ipairs(group.states) do
      if ctx.vars.status[minor] == "neutral" then
        additions(ctx, minor)
      end
    end
  end
end

-- The form of a state's production: its cities no enemy controls, and the conditions of
-- the French and English modifiers (J.2.c, whose conditions the text has lost: the players
-- read them off the card).
form.define("production", "Production", function(ctx, _, data)
  local cities = production.cities(ctx, data.state)
  local fields = {}
  if #cities.red > 0 then
    fields[#fields + 1] = { key = "red", text = "its red-symbol production cities no enemy controls", min = 0, max = #cities.red }
  end
  if #cities.black > 0 then
    fields[#fields + 1] = { key = "black", text = "its black-symbol (Landwehr) production cities no enemy controls", min = 0, max = #cities.black }
  end
  if data.state == "FR" then
    fields[#fields + 1] = { key = "modifier", text = "does the French +1 apply (Napoleon where the card says)?", choices = { { 1, "Yes: +1" }, { 0, "No" } } }
  elseif data.state == "EN" then
    fields[#fields + 1] = { key = "modifier", text = "does the English -1 apply (as the card says)?", choices = { { -1, "Yes: -1" }, { 0, "No" } } }
  end
  return fields
end)

-- A purchase: the kind, the strength points, and the production city it is deployed in.
form.define("purchase", "Purchase", function(ctx, values, data)
  local pool = states.box(data.producer, "pool")
  local kinds = {}
  for _, kind in ipairs(production.LAND) do
    if ctx:units(pool, kind) > 0 then
      kinds[#kinds + 1] = { kind, string.format("%s (%d in the pool)", ctx.data.unit_kinds[kind].name, ctx:units(pool, kind)) }
    end
  end
  for _, kind in ipairs(states.NAVAL_KINDS) do
    if ctx:units(pool, kind) > 0 then
      kinds[#kinds + 1] = { kind, string.format("%s (%d in the pool; %d points each)", production.kind_words(ctx, kind), ctx:units(pool, kind),
        production.naval_cost(ctx, data.producer)) }
    end
  end
  local fields = { { key = "kind", text = "what to buy", choices = kinds } }
  if values.kind then
    fields[#fields + 1] = { key = "n", text = "how many strength points", min = 1, max = math.max(1, ctx:units(pool, values.kind)) }
    if not production.NAVAL[values.kind] then
      local cities = production.cities(ctx, data.state)
      local choices = {}
      for _, colour in ipairs({ "red", "black" }) do
        for _, city in ipairs(cities[colour]) do
          choices[#choices + 1] = { city, city }
        end
      end
      fields[#fields + 1] = { key = "city", text = "the production city it is deployed in", choices = choices }
    end
  end
  return fields
end)

production.states = {}

-- The state producing: a major state, or the minor state chosen for a group.
local function producer(l)
  return l.minor or l.state
end

-- Whether a state produces: a major state, or a group once one of its states is chosen.
local function produces(l)
  return l.minor ~= nil or l.group == nil
end

-- The seat deciding: the state's player (or the faction's leader for a minor state).
local function seat(ctx, l)
  return states.voice(ctx, l.group and (l.faction == "pro" and "FR" or "EN") or l.state)
end

local function counter(l)
  return l.minor and "pp.minor" or ("pp." .. l.state)
end

-- The minor states of the group `l.group` on the faction's side.
local function group_states(ctx, l)
  for _, g in ipairs(states.GROUPS) do
    if g.id == l.group then
      return states.with_status(ctx, g.states, l.faction)
    end
  end
  return {}
end

-- Who produces, as the states that ask read it: the state (or group), its faction, the
-- minor state chosen.
local function producing(l)
  return { state = l.state, faction = l.faction, group = l.group, minor = l.minor }
end

-- J.3.b: which state of the group produces this phase; it pops the minor state, or nil.
local group_producer = {}
production.states.group_producer = group_producer

function group_producer.prompt(ctx)
  local l = ctx.locals
  local actions = {}
  for _, minor in ipairs(group_states(ctx, l)) do
    actions[#actions + 1] = { name = "minor", arg = minor, label = "Produce for " .. states.name(ctx, minor) }
  end
  actions[#actions + 1] = { name = "done", label = "No minor state of the group produces" }
  return { seat = seat(ctx, l), text = "J.3.b Which state of the group produces this phase (one a group)?", actions = actions }
end

function group_producer.minor(ctx, minor)
  ctx:pop(minor)
end

function group_producer.done(ctx)
  ctx:pop(nil)
end

-- J.2.b: the production cities no enemy controls (a form); it pops the form's values.
local production_die = {}
production.states.production_die = production_die

function production_die.prompt(ctx)
  local l = ctx.locals
  return {
    seat = seat(ctx, l),
    text = string.format("%s's Reinforcement Phase (J.2): its production", states.name(ctx, producer(l))),
    actions = { { name = "production", label = "Say which production cities it holds, and roll" } },
  }
end

function production_die.production(ctx)
  local l = ctx.locals
  form.open(ctx, "production", { seat = seat(ctx, l), data = { state = producer(l) } })
end

function production_die.on_resume(ctx, result)
  if result and not result.cancelled then
    ctx:pop(result.values)
  end
end

-- J.2.d to J.6: the purchases with the points rolled (locals: who produces, `red` and
-- `black` in half points, what is deployed and spent so far); done, the rest is lost.
local purchases = {}
production.states.purchases = purchases

function purchases.prompt(ctx)
  local l = ctx.locals
  local who = seat(ctx, l)
  local actions = {
    { name = "done", label = string.format("Done (%s unspent Production Points are lost)", production.words(l.red + l.black)) },
  }
  local pool = states.box(producer(l), "pool")
  local any = false
  for _, kind in ipairs(production.LAND) do
    any = any or ctx:units(pool, kind) > 0
  end
  for _, kind in ipairs(states.NAVAL_KINDS) do
    any = any or ctx:units(pool, kind) > 0
  end
  if any and l.red + l.black > 0 then
    table.insert(actions, 1, { name = "buy", label = "Buy from the Force Pool" })
  end
  if l.red > 0 then
    for _, kind in ipairs(states.NAVAL_KINDS) do
      if ctx:units(pool, kind) > 0 then
        actions[#actions + 1] = { name = "installment", arg = kind, label = string.format("Put a %s on the installment plan (down payment %s)", kind == "squadrons" and "squadron" or "transport", production.words(2 * production.down_payment(ctx, producer(l)))) }
      end
    end
    for i, item in ipairs(ctx.vars.installments) do
      if item.state == producer(l) then
        actions[#actions + 1] = { name = "pay", arg = i, label = string.format("Pay the %s in box %d a step down", item.kind == "squadrons" and "squadron" or "transport", item.box) }
      end
    end
  end
  for _, action in ipairs(production.repairs(ctx, producer(l), l)) do
    actions[#actions + 1] = action
  end
  local _, year = calendar.month_of(ctx:turn())
  if l.state == "EN" and calendar.january(ctx) and ctx.vars.naval_added ~= year then
    actions[#actions + 1] = { name = "add_naval", arg = "squadrons", label = "Add a squadron to England's Force Pool (J.5.f)" }
    actions[#actions + 1] = { name = "add_naval", arg = "transports", label = "Add a transport to England's Force Pool (J.5.f)" }
  end
  return {
    seat = who,
    text = string.format("%s's Reinforcement Phase: %s Production Points (%s of them Landwehr-only)", states.name(ctx, producer(l)),
      production.words(l.red + l.black), production.words(l.black)),
    actions = actions,
  }
end

--- A unit kind in words ("guard cavalry").
function production.kind_words(ctx, kind)
  return (ctx.data.unit_kinds[kind].name:gsub(" %(strength points%)", ""))
end

--- Half points in words ("3", "2½").
function production.words(halves)
  local whole = halves // 2
  return halves % 2 == 1 and (whole > 0 and whole .. "½" or "½") or tostring(whole)
end

-- The production roll, once the cities are known (`v`: the form's values).
local function roll(ctx, v)
  local l = ctx.locals
  -- Option j2.minor_die=controller (J.2.b, J.2.i, J.3.b): a minor state's cities count as
  -- those of the player who runs its production, France's for a pro-French state and
  -- England's for an anti-French one, and take the result of that state's roll this phase.
  local lead_state = l.faction == "pro" and "FR" or "EN"
  local lead = (ctx.vars.production_die or {})[lead_state]
  local result, told, rule = nil, nil, "J.2.b"
  if l.minor and ctx.vars.options["j2.minor_die"] == "controller" and lead and lead.turn == ctx:turn() then
    result = lead.result
    told = string.format("%s's cities count as %s's: its production die's %d gives", states.name(ctx, l.minor),
      states.name(ctx, lead_state), result)
    rule = "J.2.b, J.3.b"
  else
    local die = ctx:roll(6, states.name(ctx, producer(l)) .. "'s production die")
    result = die + (v.modifier or 0)
    if not l.minor then
      ctx.vars.production_die = ctx.vars.production_die or {}
      ctx.vars.production_die[producer(l)] = { turn = ctx:turn(), result = result }
    end
    told = string.format("%s's production die: %d%s = %d:", states.name(ctx, producer(l)), die,
      v.modifier and v.modifier ~= 0 and string.format(" %+d", v.modifier) or "", result)
  end
  local red, black = production.points(ctx, result, v.red or 0), production.points(ctx, result, v.black or 0)
  l.red, l.black = 2 * red, 2 * black
  ctx:set_counter(counter(l), red + black)
  ctx:log(string.format("%s %d Production Point(s) from %d city(ies)%s (%s).", told, red + black, (v.red or 0) + (v.black or 0),
    black > 0 and string.format(", %d of them for Landwehr only", black) or "", rule))
end

--- The down payment of a naval unit on installments, in Production Points.
function production.down_payment(ctx, state)
  local t = ctx.data.tables.installment
  if production.IBERIAN[state] then
    return t.iberian_cost // t.iberian_installments
  end
  return t.down_payment
end

--- Why a purchase of `n` strength points of `kind` (deployed in `city`) may not be made
--- now (nil: it may), and its cost in half points from the red and black points.
function production.refusal(ctx, l, kind, n, city)
  local cost = ctx.data.tables.unit_cost[kind] * n
  -- J.6.d (L941-L945): a Spanish or Portuguese naval unit costs 30 native points, which
  -- "may be financed" in six installments: bought outright, it costs them all at once.
  if production.IBERIAN[producer(l)] and production.NAVAL[kind] then
    cost = 2 * production.naval_cost(ctx, producer(l)) * n
  end
  local black = kind == "landwehr" and math.min(cost, l.black) or 0
  local red = cost - black
  if red > l.red then
    return string.format("it costs %s Production Points, and %s can pay it", production.words(cost),
      kind == "landwehr" and production.words(l.red + l.black) or production.words(l.red) .. " (not Landwehr-only points)")
  end
  local p = ctx.data.tables.production
  if producer(l) == "EN" then
    if production.NAVAL[kind] and l.naval_spent + cost > 2 * p.english_naval then
      return string.format("England spends at most %d Production Points on naval units in a phase (J.5.d)", p.english_naval)
    elseif not production.NAVAL[kind] and l.land_spent + cost > 2 * p.english_land then
      return string.format("England spends at most %d Production Points on land units in a phase (J.5.d)", p.english_land)
    end
  end
  if city and (l.deployed[city] or 0) + n > p.deploy_per_city then
    return string.format("no more than %d strength points are deployed in %s in a phase (J.2.a)", p.deploy_per_city, city)
  end
  return nil, red, black
end

local function buy(ctx, v)
  local l = ctx.locals
  local why, red, black = production.refusal(ctx, l, v.kind, v.n, v.city)
  if why then
    ctx:log(string.format("Not bought: %s.", why))
    return
  end
  l.red, l.black = l.red - red, l.black - black
  if production.NAVAL[v.kind] then
    l.naval_spent = l.naval_spent + red + black
  else
    l.land_spent = l.land_spent + red + black
  end
  if v.city then
    l.deployed[v.city] = (l.deployed[v.city] or 0) + v.n
  end
  ctx:add_units(states.box(producer(l), "pool"), v.kind, -v.n)
  ctx:set_counter(counter(l), (l.red + l.black) // 2)
  ctx:log(string.format("%s buys %d %s for %s Production Points%s.", states.name(ctx, producer(l)), v.n,
    production.kind_words(ctx, v.kind), production.words(red + black),
    v.city and (", deployed in " .. v.city) or ""))
end

function purchases.on_resume(ctx, result)
  if result and not result.cancelled then
    buy(ctx, result.values)
  end
end

function purchases.buy(ctx)
  local l = ctx.locals
  form.open(ctx, "purchase", { seat = seat(ctx, l), data = { producer = producer(l), state = producer(l) }, cancel = "Buy nothing" })
end

function purchases.installment(ctx, kind)
  local l = ctx.locals
  local down = 2 * production.down_payment(ctx, producer(l))
  if down > l.red then
    ctx:log("Not enough Production Points for the down payment.")
    return
  end
  l.red = l.red - down
  ctx:add_units(states.box(producer(l), "pool"), kind, -1)
  local installments = ctx.vars.installments
  installments[#installments + 1] = { state = producer(l), kind = kind, box = ctx.data.tables.installment.first_box, paid = down // 2 }
  ctx.vars.installments = installments
  ctx:set_counter(counter(l), (l.red + l.black) // 2)
  ctx:log(string.format("%s puts a %s on the Production Track, box %d, for a down payment of %d (J.6.c).", states.name(ctx, producer(l)),
    kind == "squadrons" and "squadron" or "transport", ctx.data.tables.installment.first_box, down // 2))
end

--- The total cost of a naval unit for `state` (J.6.b, J.6.d).
function production.naval_cost(ctx, state)
  if production.IBERIAN[state] then
    return ctx.data.tables.installment.iberian_cost
  end
  return ctx.data.tables.unit_cost.squadrons // 2
end

function purchases.pay(ctx, i)
  local l = ctx.locals
  local item = ctx.vars.installments[i]
  local step = production.down_payment(ctx, item.state)
  if 2 * step > l.red then
    ctx:log("Not enough Production Points for the installment.")
    return
  end
  l.red = l.red - 2 * step
  item.paid = item.paid + step
  if item.box > 1 then
    item.box = item.box - 1
  end
  local installments = ctx.vars.installments
  if item.box == 1 and item.paid >= production.naval_cost(ctx, item.state) then
    table.remove(installments, i)
    ctx:log(string.format("%s's %s leaves the Production Track and is deployed in a port (J.6.c).", states.name(ctx, item.state), item.kind == "squadrons" and "squadron" or "transport"))
  else
    installments[i] = item
    ctx:log(string.format("%s pays %d: its %s moves to box %d (%d of %d paid).", states.name(ctx, item.state), step,
      item.kind == "squadrons" and "squadron" or "transport", item.box, item.paid, production.naval_cost(ctx, item.state)))
  end
  ctx.vars.installments = installments
  ctx:set_counter(counter(l), (l.red + l.black) // 2)
end

--- The repairs `state` may pay for now (K.6.c-d, K.7.c): a prize, one at a time, at 3
--- points and 3 months a squadron (1 and 1 a transport), paid a point at a time; damaged
--- squadrons, a point each, repaired in a turn.
function production.repairs(ctx, state, l)
  local actions = {}
  if l.red < 2 then
    return actions
  end
  local repair = ctx.vars.prize_repair[state]
  if repair and repair.paid < repair.cost then
    actions[#actions + 1] = { name = "pay_prize", label = string.format("Pay a point toward the prize's repair (%d of %d paid)", repair.paid, repair.cost) }
  elseif not repair and #(ctx.vars.prizes[state] or {}) > 0 then
    actions[#actions + 1] = { name = "repair_prize", label = "Begin repairing a prize in port (K.6.d): a point now" }
  end
  local damaged = (ctx.vars.damaged[state] or 0) - ((ctx.vars.damage_repair[state] or {}).n or 0)
  if damaged > 0 then
    actions[#actions + 1] = { name = "repair_damage", label = string.format("Repair a damaged squadron for a point (K.7.c; %d damaged)", damaged) }
  end
  return actions
end

local function spend(ctx, l, points)
  l.red = l.red - 2 * points
  ctx:set_counter(counter(l), (l.red + l.black) // 2)
end

function purchases.repair_prize(ctx)
  local l = ctx.locals
  local state = producer(l)
  local r = ctx.data.tables.repair
  local prizes = ctx.vars.prizes[state]
  local prize = table.remove(prizes, 1)
  ctx.vars.prizes[state] = prizes
  local squadron = prize.kind == "squadrons"
  -- Its months count from this one, but for the turn it came into port (K.6.d).
  ctx.vars.prize_repair[state] = {
    kind = prize.kind, paid = 1, started = ctx:turn() > prize.turn,
    cost = squadron and r.prize_squadron_points or r.prize_transport_points,
    months = squadron and r.prize_squadron_months or r.prize_transport_months,
  }
  spend(ctx, l, 1)
  ctx:log(string.format("%s begins repairing a captured %s (K.6.d): 1 point paid.", states.name(ctx, state), squadron and "squadron" or "transport"))
end

function purchases.pay_prize(ctx)
  local l = ctx.locals
  local state = producer(l)
  local repair = ctx.vars.prize_repair[state]
  repair.paid = repair.paid + 1
  ctx.vars.prize_repair[state] = repair
  spend(ctx, l, 1)
  ctx:log(string.format("%s pays a point toward the prize's repair: %d of %d.", states.name(ctx, state), repair.paid, repair.cost))
end

function purchases.repair_damage(ctx)
  local l = ctx.locals
  local state = producer(l)
  local repair = ctx.vars.damage_repair[state] or { n = 0 }
  repair.n, repair.turn = repair.n + 1, ctx:turn()
  ctx.vars.damage_repair[state] = repair
  spend(ctx, l, ctx.data.tables.repair.damage_points)
  ctx:log(string.format("%s pays to repair a damaged squadron: ready after a turn (K.7.c).", states.name(ctx, state)))
end

function purchases.add_naval(ctx, kind)
  ctx:add_units("pool.EN", kind, 1)
  local _, year = calendar.month_of(ctx:turn())
  ctx.vars.naval_added = year
  ctx:log(string.format("England adds a %s to its Force Pool (J.5.f).", kind == "squadrons" and "squadron" or "transport"))
end

function purchases.done(ctx)
  local l = ctx.locals
  if l.red + l.black > 0 then
    ctx:log(string.format("%s's %s unspent Production Points are lost (J.2.h).", states.name(ctx, producer(l)), production.words(l.red + l.black)))
  end
  ctx:set_counter(counter(l), 0)
  ctx:pop(nil)
end

-- One state's (or minor group's) Reinforcement Phase (J), called by its segment with the
-- `state` and its `faction`.
production.states.reinforcement = steps.procedure("J Reinforcement Phase", {
  {
    name = "J.1.f The January additions to the Force Pool",
    run = function(ctx)
      local l = ctx.locals
      ctx:set_phase(string.format("%s: %s, Reinforcement Phase: %s", calendar.words(ctx:turn()), calendar.SEGMENTS[l.faction],
        states.name(ctx, l.state)))
      l.group = l.state:match("^group:(.+)$")
      for _, state in ipairs(l.group and group_states(ctx, l) or { l.state }) do
        additions(ctx, state)
      end
    end,
  },
  {
    name = "J.3.b One state of the group produces",
    calls = "group_producer",
    run = function(ctx)
      if ctx.locals.group then
        return steps.call("group_producer", producing(ctx.locals))
      end
    end,
    resume = function(ctx, minor)
      ctx.locals.minor = minor
    end,
  },
  {
    name = "J.2.b The production die",
    calls = "production_die",
    run = function(ctx)
      if produces(ctx.locals) then
        return steps.call("production_die", producing(ctx.locals))
      end
    end,
    resume = roll,
  },
  {
    name = "J.2.d-J.6 Purchases; J.2.h the rest is lost",
    calls = "purchases",
    run = function(ctx)
      local l = ctx.locals
      if produces(l) then
        local buying = producing(l)
        buying.red, buying.black, buying.deployed, buying.land_spent, buying.naval_spent = l.red, l.black, {}, 0, 0
        return steps.call("purchases", buying)
      end
    end,
  },
})

return production
