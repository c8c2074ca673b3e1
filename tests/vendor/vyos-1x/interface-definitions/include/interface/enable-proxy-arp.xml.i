<!-- include start from interface/enable-proxy-arp.xml.i -->
<leafNode name="enable-proxy-arp">
  <properties>
    <help>Enable proxy-arp on this interface</help>
    <valueless/>
  </properties>
</leafNode>
<!-- include end -->
