-- La Guerre de l'Empereur: the War Declaration Step (5.3-5.33) with its cancel window
-- (4.62). A Player Country declares war on a power and on every member of that power's
-- alliance; any other player may try, once, to cancel the declaration; else the declarer
-- pays 10 VP and the wars begin. Each of the declarer's allies agrees to join the war (it
-- then owes the declaration in its next War Declaration Step) or refuses (the declarer
-- then breaks the alliance and pays 5 VP, 5.24). An NPC attacked without an ally (inactive
-- or Controlled) is bid for in secret, in gold, by the players not allied with the
-- declarer (a tie goes to an open auction among the tied); if nobody bids for an inactive
-- NPC, the other players roll for who runs its units (5.33), and it has its own turn. The
-- declaration is one procedure (@lib/steps.lua); each decision is a state that hands its
-- answer back to it.

local bid = include("rules/bid.lua")
local cancel = include("rules/cancel.lua")
local powers = include("rules/powers.lua")
local steps = include("@lib/steps.lua")
local util = include("@lib/util.lua")
local ask = include("rules/ask.lua")

local war = {}

war.DECLARE_VP = 10

local name = powers.name

--- The powers `power` may declare war on now: not itself or an ally, not a power it is at
--- war with, not one whose alliance holds a power it has an Enforced Peace with (5.14), not
--- one whose declaration was cancelled this Season (4.623).
function war.declarable(ctx, power)
  return util.filter(ctx.vars.powers, function(target)
    local ok = target ~= power and not powers.allied(ctx, power, target)
      and not powers.at_war(ctx, power, target)
      and ctx.vars.cancelled[power .. ">" .. target] ~= ctx:turn()
    -- A declaration is made on the target's whole alliance (5.3).
    for _, member in ipairs(powers.alliance(ctx, target)) do
      ok = ok and not powers.enforced(ctx, power, member)
    end
    return ok
  end)
end

war.states = {}

--- Opens the declaration of war by `declarer` on `target` (and its alliance): the caller's
--- `on_resume` gets `{war = true}` once it stands, `{war = false}` if it is cancelled.
function war.declare(ctx, declarer, target)
  local targets = powers.alliance(ctx, target)
  ctx:call("war_declaration", { declarer = declarer, target = target, targets = targets, words = powers.names(ctx, targets) })
end

-- The NPCs among the targets that are bid for (5.32, 5.322): those with no ally.
local function unallied_npcs(ctx, targets)
  return util.filter(targets, function(target)
    local status = ctx.vars.npc[target]
    return status == "inactive" or status == "controlled"
  end)
end

-- 5.31: the declaration stands: the declarer pays 10 VP and is at war with every target.
-- Its allies not yet at war with every target are then asked to join it (5.24).
local function stands(ctx)
  local l = ctx.locals
  ctx:add_counter("vp." .. l.declarer, -war.DECLARE_VP)
  for _, target in ipairs(l.targets) do
    powers.start_war(ctx, l.declarer, target)
    if ctx.vars.owed[l.declarer] then
      ctx.vars.owed[l.declarer][target] = nil
    end
  end
  ctx:log(string.format("%s declares war on %s and pays %d VP (5.31).", name(ctx, l.declarer), l.words, war.DECLARE_VP))
  l.allies = util.filter(powers.pc_allies(ctx, l.declarer), function(ally)
    return util.count(l.targets, function(target)
      return not powers.at_war(ctx, ally, target)
    end) > 0
  end)
end

-- The Player Countries who may bid for `npc`, which `declarer` attacked (5.32): all but the
-- declarer and its allies, and those at war with the NPC (as for a roll, 4.4), in the
-- powers' order.
local function bidders(ctx, declarer, npc)
  return util.filter(ctx.vars.pcs, function(power)
    return power ~= declarer and not powers.allied(ctx, power, declarer) and not powers.hostile(ctx, power, npc)
  end)
end

local function allied(ctx, power, npc, paid)
  ctx:add_counter("gold." .. power, -paid)
  powers.gain_npc(ctx, power, npc)
  ctx:log(string.format("%s pays %d gold and allies with %s; it must declare war on %s's enemies in its next War Declaration Step (5.32).",
    name(ctx, power), paid, name(ctx, npc), name(ctx, npc)))
end

-- Nobody bids for `npc`: a Controlled NPC stays with its controller (5.322); an inactive one
-- is run by the player the dice choose (5.33), with a turn of its own.
local function caretaker(ctx, declarer, npc)
  if ctx.vars.npc[npc] == "controlled" then
    ctx:log(string.format("Nobody bids for %s: %s still runs its units (5.322).", name(ctx, npc), name(ctx, ctx.vars.controller[npc])))
    return
  end
  -- 5.33 (L1790-L1792): every player but the attacker rolls; the highest runs the NPC (ties
  -- roll again); and not the attacker's allies, whom 3.3 excludes (L515-L519: "a player not
  -- Allied to the player at war").
  local others = util.filter(ctx.vars.pcs, function(power)
    return power ~= declarer
  end)
  local list = util.filter(others, function(power)
    return not powers.allied(ctx, declarer, power)
  end)
  -- Every other player allied to the attacker (two players, say): 5.33's roll among all but
  -- the attacker (RULES-GAPS.md).
  if #list == 0 then
    list = others
  end
  local winner = bid.by_dice(ctx, list, 10, function(power)
    return name(ctx, power) .. "'s caretaker roll for " .. name(ctx, npc)
  end)[1]
  ctx.vars.npc[npc] = "controlled"
  ctx.vars.controller[npc] = winner
  ctx:move_card("chit." .. npc, "cup")
  ctx:log(string.format("Nobody bids for %s: %s runs its units, and it has a turn of its own (5.33).", name(ctx, npc), winner and name(ctx, winner) or "nobody"))
end

-- The War Declaration (5.3): the cancel window, the war and its 10 VP, each ally's answer,
-- then an auction for each NPC attacked without an ally, one by one (none for an NPC no
-- player may bid for). It hands back whether the war stands.
war.states.war_declaration = steps.procedure("5.3 War Declaration", {
  {
    name = "4.62 Any other player may try to cancel it",
    calls = "cancel_window",
    run = function(ctx)
      local l = ctx.locals
      return cancel.window(ctx, string.format("%s declares war on %s", name(ctx, l.declarer), l.words), { l.declarer })
    end,
    -- A cancelled declaration may not be made again this Season (4.623).
    resume = function(ctx, result)
      local l = ctx.locals
      if result.cancelled then
        ctx.vars.cancelled[l.declarer .. ">" .. l.target] = ctx:turn()
        l.cancelled = true
      end
    end,
  },
  {
    name = "5.31 The war begins: 10 VP",
    run = function(ctx)
      if not ctx.locals.cancelled then
        stands(ctx)
      end
    end,
  },
  {
    name = "5.24 Each ally joins the war or refuses",
    each = steps.listed("allies"),
    label = name,
    calls = "war_allies",
    run = function(ctx, ally)
      local l = ctx.locals
      return steps.call("war_allies", { declarer = l.declarer, words = l.words, ally = ally })
    end,
    -- An ally who agrees owes the declaration in its next War Declaration Step.
    resume = function(ctx, agreed, ally)
      local l = ctx.locals
      if agreed then
        powers.owe(ctx, ally, l.declarer, l.targets)
        ctx:log(string.format("%s agrees to join %s's war.", name(ctx, ally), name(ctx, l.declarer)))
      else
        l.refused = true
        ctx:log(string.format("%s refuses to join %s's war.", name(ctx, ally), name(ctx, l.declarer)))
      end
    end,
  },
  {
    name = "5.24 A war made without the allies' agreement breaks the alliance",
    run = function(ctx)
      local l = ctx.locals
      if l.refused then
        powers.leave(ctx, l.declarer)
        local vp = ctx:add_counter("vp." .. l.declarer, -powers.BREAK_VP)
        ctx:log(string.format("%s declared war without its allies' agreement: it leaves the alliance and pays %d VP (%d VP) (5.24).",
          name(ctx, l.declarer), powers.BREAK_VP, vp))
      end
    end,
  },
  {
    name = "5.32 Each NPC attacked without an ally is bid for",
    each = function(ctx)
      return not ctx.locals.cancelled and unallied_npcs(ctx, ctx.locals.targets) or {}
    end,
    label = name,
    calls = { "npc_auction", "open_auction" },
    run = function(ctx, npc)
      local declarer = ctx.locals.declarer
      if #bidders(ctx, declarer, npc) > 0 then
        return steps.call("npc_auction", { declarer = declarer, npc = npc })
      end
      caretaker(ctx, declarer, npc)
    end,
    -- The highest secret bid wins; nobody's, a caretaker (5.33); a tie, an open auction among
    -- the tied, whose last bidder in pays his bid.
    resume = function(ctx, result, npc)
      if result.winner then
        allied(ctx, result.winner, npc, result.paid)
      elseif result.high == 0 then
        caretaker(ctx, ctx.locals.declarer, npc)
      elseif #result.top == 1 then
        allied(ctx, result.top[1], npc, result.high)
      else
        return steps.call("open_auction", { npc = npc, high = result.high, leader = result.top[1], bidders = result.top, n = 2 })
      end
    end,
  },
  finish = function(ctx)
    return { war = not ctx.locals.cancelled }
  end,
})

-- 5.24: an ally of the declarer agrees to join the war, or refuses; it hands back whether it
-- agrees.
war.states.war_allies = ask.question(function(ctx)
  local l = ctx.locals
  return string.format("5.24 %s, your ally, is at war with %s: will %s join the war (and declare it in its next War Declaration Step)?",
    name(ctx, l.declarer), l.words, name(ctx, l.ally))
end, {
  { name = "agree", label = "Agree: declare war on them in my next War Declaration Step" },
  { name = "refuse", label = "Refuse: the alliance is broken" },
}, { agree = ask.result(true), refuse = ask.result(false) }, function(ctx)
  return ctx.locals.ally
end)

-- 5.32: the players not allied with the declarer bid gold for the attacked NPC, in secret,
-- all revealed at once; it hands back the highest bid and who made it.
local auction = {}
war.states.npc_auction = auction

function auction.prompt(ctx)
  local l = ctx.locals
  local asks = {}
  for _, power in ipairs(bidders(ctx, l.declarer, l.npc)) do
    asks[#asks + 1] = { seat = power, actions = { { name = "bid", min = 0, max = math.max(0, ctx:counter("gold." .. power)), label = "Gold bid for the alliance" } } }
  end
  return { text = string.format("5.32 Bids in gold, in secret, for an alliance with %s", name(ctx, l.npc)), asks = asks }
end

-- (A bid of nothing is no bid: with none, the high bid is 0 and nobody made it.)
function auction.reveal(ctx, choices)
  local l = ctx.locals
  local best, top = util.highest(bidders(ctx, l.declarer, l.npc), function(power)
    local b = choices[power].arg
    return b > 0 and b or nil
  end)
  ctx:pop({ high = best or 0, top = top })
end

-- The open auction among the tied (5.32): each in turn raises the high bid or drops out;
-- it hands back the last one in and his bid.
local open = {}
war.states.open_auction = open

function open.prompt(ctx)
  local l = ctx.locals
  local power = l.bidders[l.n]
  local actions = { { name = "drop", label = "Drop out" } }
  if ctx:counter("gold." .. power) > l.high then
    table.insert(actions, 1, { name = "raise", min = l.high + 1, max = ctx:counter("gold." .. power), label = "Raise the bid" })
  end
  return {
    seat = power,
    text = string.format("5.32 Open auction for %s: %s bids %d", name(ctx, l.npc), name(ctx, l.leader), l.high),
    actions = actions,
  }
end

-- (The turn never comes back to the leader while another bidder is in: to stay in, a
-- bidder must raise and lead.)
function open.raise(ctx, amount)
  local l = ctx.locals
  l.high, l.leader = amount, l.bidders[l.n]
  l.n = l.n % #l.bidders + 1
end

function open.drop(ctx)
  local l = ctx.locals
  table.remove(l.bidders, l.n)
  if l.n > #l.bidders then
    l.n = 1
  end
  if #l.bidders == 1 then
    ctx:pop({ winner = l.bidders[1], paid = l.high })
  end
end

return war
