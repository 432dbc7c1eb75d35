-- La Guerre de l'Empereur: the Winterphase (4.0-4.4). The Economic Phase in its steps: each
-- player's taxes, read off the map (4.21), less his embargo's cost (4.258); the mandatory
-- expenses (4.22); the VP his provinces give (4.23); the Continental System's toll on
-- Britain (4.24); the secret VP purchase (4.25). Then the Diplomacy Phase at the table
-- (4.3), the NPC Alliance Phase in chit order (4.4), the NPC builds at the table (4.41),
-- and Spring. The phase is one procedure in the rulebook's order (@lib/steps.lua); each
-- decision is a state that hands its answer back to it.

local powers = include("rules/powers.lua")
local steps = include("@lib/steps.lua")
local ask = include("rules/ask.lua")

local winter = {}

local name = powers.name

local function gold(ctx, power, n)
  return ctx:add_counter("gold." .. power, n)
end

--- The Player Countries in the Continental System, in power order.
function winter.embargoed(ctx)
  local list = {}
  for _, power in ipairs(ctx.vars.pcs) do
    if ctx.vars.embargo[power] then
      list[#list + 1] = power
    end
  end
  return list
end

--- A power's embargo year this Winterphase: its marker's space, one on from last year's.
local function embargo_year(ctx, power)
  return (ctx.vars.embargo_years[power] or 0) + 1
end

--- What the embargo costs a participant this year (4.258): the track's cost for its year;
--- France takes 15 off when another nation takes part (so France may gain).
function winter.embargo_cost(ctx, power)
  local cost = ctx.data.tables.embargo_cost[power .. "/" .. embargo_year(ctx, power)]
  if power == "FR" and #winter.embargoed(ctx) > 1 then
    cost = cost - 15
  end
  return cost
end

--- The most VP `power` can buy (4.25): ten, and no more than its gold pays for.
function winter.affordable(ctx, power)
  local have = ctx:counter("gold." .. power)
  local n = 0
  for k = 1, 10 do
    if ctx.data.tables.vp_purchase[tostring(k)] <= have then
      n = k
    else
      break
    end
  end
  return n
end

winter.states = {}

-- 4.21: a player's taxes (none once his capital has been held two turns running, 4.213),
-- less what the Continental System costs him this year (4.258).
local function collect_taxes(ctx, taxes, power)
  local embargo = 0
  if ctx.vars.embargo[power] then
    embargo = winter.embargo_cost(ctx, power)
  end
  local now = gold(ctx, power, taxes - embargo)
  local cost = embargo ~= 0 and string.format(", less %d for the Continental System", embargo) or ""
  ctx:log(string.format("%s collects %d gold in taxes%s: %d gold.", name(ctx, power), taxes, cost, now))
end

-- 4.22, 4.221: 10 gold for each NPC ally, 5 for being at war; it may leave a deficit.
local function pay_expenses(ctx)
  for _, power in ipairs(ctx.vars.pcs) do
    local allies = 0
    for _, ally in pairs(ctx.vars.npc_ally) do
      if ally == power then
        allies = allies + 1
      end
    end
    local at_war = powers.in_war(ctx, power)
    local due = 10 * allies + (at_war and 5 or 0)
    if due > 0 then
      local now = gold(ctx, power, -due)
      ctx:log(string.format("%s pays %d gold (%d NPC all%s%s): %d gold%s.", name(ctx, power), due, allies,
        allies == 1 and "y" or "ies", at_war and ", at war" or "", now, now < 0 and ", a deficit" or ""))
    end
  end
end

winter.PEACE_PARTY_VP = 5

-- 4.74: an unresolved Peace Party costs its nation 2d10 gold and 5 VP, unless a temporary
-- resolution (4.742) holds it off this year.
local function peace_party_toll(ctx, resolved, power)
  if resolved then
    ctx:log(string.format("%s's Peace Party is held off this year (4.742).", name(ctx, power)))
    return
  end
  local a = ctx:roll(10, name(ctx, power) .. "'s Peace Party, first die")
  local b = ctx:roll(10, name(ctx, power) .. "'s Peace Party, second die")
  local now = gold(ctx, power, -(a + b))
  local vp = ctx:add_counter("vp." .. power, -winter.PEACE_PARTY_VP)
  ctx:log(string.format("%s's Peace Party costs %d gold (%d + %d) and %d VP: %d gold, %d VP (4.74).", name(ctx, power), a + b, a, b, winter.PEACE_PARTY_VP, now, vp))
end

-- 4.24: each participant's year on the track costs Britain its VP, and a VP for each minor
-- port of trade its blockaders hold; each participant's marker moves a year on.
local function continental_toll(ctx, ports)
  local loss = ports
  for _, power in ipairs(winter.embargoed(ctx)) do
    local year = embargo_year(ctx, power)
    local vp = ctx.data.tables.embargo_vp[power .. "/" .. year]
    loss = loss + vp
    ctx.vars.embargo_years[power] = year
    ctx:log(string.format("%s's year %d in the Continental System costs Britain %d VP.", name(ctx, power), year, vp))
  end
  if ctx.vars.npc.GB == nil then
    local now = ctx:add_counter("vp.GB", -loss)
    ctx:log(string.format("Britain loses %d VP (%d for minor ports of trade): %d VP.", loss, ports, now))
  end
end

-- 4.25: the purchases revealed, each player in turn pays the VP Purchase Chart's price.
local function buy_vp(ctx, bought)
  for _, power in ipairs(ctx.vars.pcs) do
    local n = bought[power]
    if n > 0 then
      local cost = ctx.data.tables.vp_purchase[tostring(n)]
      gold(ctx, power, -cost)
      local vp = ctx:add_counter("vp." .. power, n)
      ctx:log(string.format("%s buys %d VP for %d gold: %d VP.", name(ctx, power), n, cost, vp))
    else
      ctx:log(string.format("%s buys no VP.", name(ctx, power)))
    end
  end
end

-- 4.4: every Player Country's chit in the cup, drawn one at a time: the order of the rolls.
local function npc_alliance_order(ctx)
  local order = {}
  for _, power in ipairs(ctx.vars.pcs) do
    ctx:move_card("chit." .. power, "cup")
  end
  ctx:shuffle("cup")
  for _, chit in ipairs(ctx:zone("cup")) do
    order[#order + 1] = chit:match("^chit%.(.+)$")
  end
  for _, chit in ipairs(ctx:zone("cup")) do
    ctx:move_card(chit, "chits", "bottom")
  end
  local names = {}
  for i, p in ipairs(order) do
    names[i] = name(ctx, p)
  end
  ctx:log(string.format("%d Winterphase, 4.4 NPC Alliance Phase: the chits come out %s.", ctx.vars.year, table.concat(names, ", ")))
  return order
end

-- The Winterphase (4.0, 3.7 A), in the rulebook's order. The Peace Parties are read after
-- the Expense Step (4.74 names no step), the Continental System's toll at the end of the VP
-- Collection Step (4.24); then the turn marker moves from Winter to Spring (4.41).
winter.states.winterphase = steps.procedure("4.0 Winterphase", {
  ask.calling {
    name = "4.21 Tax Collection Step",
    each = ask.players,
    label = name,
    calls = "tax",
    resume = collect_taxes,
  },
  { name = "4.22 Expense Step", run = pay_expenses },
  ask.calling {
    name = "4.74 Peace Parties",
    each = ask.players,
    skip = function(ctx, power)
      return not ctx.vars.peace_party[power]
    end,
    label = name,
    calls = "peace_party",
    resume = peace_party_toll,
  },
  ask.calling {
    name = "4.23 Victory Point Collection Step",
    each = ask.players,
    label = name,
    calls = "vp_collection",
    resume = function(ctx, n, power)
      local now = ctx:add_counter("vp." .. power, n)
      ctx:log(string.format("%s collects %d VP: %d VP.", name(ctx, power), n, now))
    end,
  },
  {
    name = "4.24 The Continental System's toll on Britain",
    calls = "continental",
    run = function(ctx)
      if #winter.embargoed(ctx) > 0 then
        return steps.call("continental")
      end
    end,
    resume = continental_toll,
  },
  ask.calling {
    name = "4.25 Victory Point Purchase Step",
    calls = "vp_purchase",
    resume = buy_vp,
  },
  ask.calling {
    name = "4.3 Diplomacy Phase",
    calls = "diplomacy",
  },
  {
    name = "4.4 NPC Alliance Phase: the chits drawn",
    run = function(ctx)
      ctx.locals.order = npc_alliance_order(ctx)
    end,
  },
  ask.calling {
    name = "4.4 NPC Alliance Phase: a roll as each chit comes out",
    each = steps.listed("order"),
    label = name,
    calls = "npc_alliance",
    resume = function(ctx, npc, power)
      if npc then
        winter.roll_for(ctx, power, npc)
      end
    end,
  },
  ask.calling {
    name = "4.41 NPC builds and Minor Power desertions",
    calls = "npc_builds",
  },
  {
    name = "4.41 The turn marker from Winter to Spring",
    run = function(ctx)
      ctx.vars.season = "Spring"
      ctx:set_turn(ctx:turn() + 1)
    end,
  },
})

-- A question of the Winterphase (ask.question): its words `what(ctx, power)` after the
-- year.
local function question(what, actions, answers, seat)
  return ask.question(function(ctx, power)
    return string.format("%d Winterphase, %s", ctx.vars.year, what(ctx, power))
  end, actions, answers, seat)
end

-- 4.21: a player's taxes, read off the map.
winter.states.tax = question(function(ctx, power)
  return string.format("4.21 Tax Collection: %s's taxes (the gold of its provinces on the map)", name(ctx, power))
end, {
  { name = "tax", min = 0, max = 1000, label = "Taxes" },
  { name = "no_tax", label = "No taxes: the capital has been occupied two turns running (4.213)" },
}, { tax = ask.given, no_tax = ask.result(0) })

-- 4.742: whether a Peace Party's nation has earned a temporary resolution this year.
winter.states.peace_party = question(function(ctx, power)
  return string.format("4.74 Peace Party in %s: has it, since the event, taken an enemy capital, beaten a field army of 5 Corps or more, or a fleet of 2 fleets or more (4.742)?",
    name(ctx, power))
end, {
  { name = "resolved", label = "Yes: no penalty this year" },
  { name = "penalty", label = "No: pay 2d10 gold and 5 VP" },
}, { resolved = ask.result(true), penalty = ask.result(false) })

-- 4.23: a player's VP, read off the map.
winter.states.vp_collection = question(function(ctx, power)
  return string.format("4.23 VP Collection: %s's VP (the VP of its provinces on the map)", name(ctx, power))
end, { { name = "vp", min = 0, max = 1000, label = "VP collected" } }, { vp = ask.given })

-- 4.24: the minor powers' ports of trade the blockaders hold, read off the map.
winter.states.continental = question(function()
  return "4.24 Continental System: the minor powers' ports of trade its blockaders hold (from the map)"
end, { { name = "ports", min = 0, max = 100, label = "Minor ports of trade closed" } }, { ports = ask.given }, function()
  return "FR"
end)

-- 4.25: how many VP each player buys, written in secret and revealed together.
local vp_purchase = {}
winter.states.vp_purchase = vp_purchase

function vp_purchase.prompt(ctx)
  local asks = {}
  for _, power in ipairs(ctx.vars.pcs) do
    asks[#asks + 1] = { seat = power, actions = { { name = "buy", min = 0, max = winter.affordable(ctx, power), label = "VP to buy" } } }
  end
  return { text = string.format("%d Winterphase, 4.25 VP Purchase: how many VP each player buys, in secret", ctx.vars.year), asks = asks }
end

function vp_purchase.reveal(ctx, choices)
  local bought = {}
  for _, power in ipairs(ctx.vars.pcs) do
    bought[power] = choices[power].arg
  end
  ctx:pop(bought)
end

--- A step played at the table: the first player says when it is over (`label`). `what` is
--- the step's words after the year.
local function at_table(what, label)
  return question(function()
    return what
  end, { { name = "done", label = label } }, { done = ask.done }, function(ctx)
    return ctx.vars.pcs[1]
  end)
end

-- 4.3 The Diplomacy Phase: five minutes of talks, at the table.
winter.states.diplomacy = at_table("4.3 Diplomacy Phase: five minutes of talks, in private if the players wish",
  "The talks are over")

--- The NPC Alliance rolls open to `power`, as actions named `action`, each label begun by
--- `how` ("Roll", "Pay 10 gold and roll"): for each NPC it is not allied with, to gain it or
--- to break another player's alliance with it.
function winter.npc_rolls(ctx, power, action, how)
  local actions = {}
  for _, npc in ipairs(ctx.vars.powers) do
    if ctx.vars.npc[npc] and ctx.vars.npc_ally[npc] ~= power and not powers.hostile(ctx, power, npc) then
      local holder = ctx.vars.npc_ally[npc]
      local label = holder and string.format("%s to break %s's alliance with %s", how, name(ctx, holder), name(ctx, npc))
        or string.format("%s for an alliance with %s", how, name(ctx, npc))
      actions[#actions + 1] = { name = action, arg = npc, label = label }
    end
  end
  return actions
end

-- 4.4: as its chit comes out, a player may roll a d10 on the NPC Alliance Table to gain an
-- NPC no one has, or to break another player's alliance with one (two more than its
-- number, a 10 always).
winter.states.npc_alliance = question(function(ctx, power)
  return string.format("4.4 NPC Alliance Phase: %s may roll on the NPC Alliance Table", name(ctx, power))
end, function(ctx, power)
  local actions = winter.npc_rolls(ctx, power, "roll", "Roll")
  actions[#actions + 1] = { name = "pass", label = "No roll" }
  return actions
end, { roll = ask.given, pass = ask.done })

--- The NPC Alliance Table's roll for `power` on `npc`: whether it gains (or breaks) it.
function winter.alliance_roll(ctx, power, npc, roll)
  local need = ctx.data.tables.npc_alliance[power .. "/" .. npc]
  local holder = ctx.vars.npc_ally[npc]
  if holder then
    need = math.min(need + 2, 10)
  end
  return roll >= need, need, holder
end

function winter.roll_for(ctx, power, npc)
  local roll = ctx:roll(10, string.format("%s's NPC Alliance roll on %s", name(ctx, power), name(ctx, npc)))
  local ok, need, holder = winter.alliance_roll(ctx, power, npc, roll)
  if ok and holder then
    powers.drop_npc(ctx, holder, npc)
    ctx:log(string.format("%s breaks %s's alliance with %s (%d, %d needed): %s is %s (5.23).", name(ctx, power), name(ctx, holder), name(ctx, npc), roll, need, name(ctx, npc), ctx.vars.npc[npc]))
  elseif ok then
    powers.gain_npc(ctx, power, npc)
    ctx:log(string.format("%s gains %s as its ally (%d, %d needed).", name(ctx, power), name(ctx, npc), roll, need))
  else
    ctx:log(string.format("%s's roll on %s fails (%d, %d needed).", name(ctx, power), name(ctx, npc), roll, need))
  end
end

-- 4.41 NPC builds and desertions, at the table.
winter.states.npc_builds = at_table("4.41 NPC builds and Minor Power desertions (at the table): then Spring",
  "Done: Spring begins")

return winter
